/**
 * `npm run differential -- --system S --universes N --seed K`: N seeded random universes of system S
 * (seeds K..K+N-1), each resolved by the real tool and by the insights worker through its
 * GetDependencies endpoint on an emptied schema, with the universe served from loopback. It runs the
 * system's end-to-end suite (test/http/insights/dependencies/e2e-<S>.test.ts, the e2e vitest
 * project: PGlite, the Neon-compatible proxy, the local QStash) with DIFFERENTIAL_UNIVERSES and
 * DIFFERENTIAL_SEED set (tools/universes/differential-seeds.ts), so the comparison is the suite's own.
 * Prints one line per universe that differs (`differential: S <universe>: <first line of the failure>`)
 * and `differential: S N universes, D different`; exits 1 when some differ or could not be compared
 * (the tool is missing: the suite skips, and that is said), 2 on bad arguments.
 *
 * Systems: npm (npm, tools/universes/npm-random.ts), pypi (pip), cargo (cargo), maven (mvn), go (go),
 * rubygems (bundle).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SUITES: Record<string, { file: string; firstSeed: number }> = {
  npm: { file: 'e2e-npm-random.test.ts', firstSeed: 3000 },
  pypi: { file: 'e2e-pypi.test.ts', firstSeed: 5000 },
  cargo: { file: 'e2e-cargo.test.ts', firstSeed: 1000 },
  maven: { file: 'e2e-maven.test.ts', firstSeed: 7000 },
  go: { file: 'e2e-go.test.ts', firstSeed: 2000 },
  rubygems: { file: 'e2e-rubygems.test.ts', firstSeed: 2000 },
};

interface Assertion {
  title: string;
  status: 'passed' | 'failed' | 'skipped' | 'pending' | 'todo';
  failureMessages: string[];
}

function args(argv: string[]): { system: string; universes: number; seed: number } | string {
  const get = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const system = (get('--system') ?? '').toLowerCase();
  if (!SUITES[system]) {
    return `usage: npm run differential -- --system ${Object.keys(SUITES).join('|')} --universes N --seed K`;
  }
  const universes = Number(get('--universes') ?? '10');
  const seed = Number(get('--seed') ?? SUITES[system]!.firstSeed);
  if (!Number.isInteger(universes) || universes <= 0 || !Number.isInteger(seed))
    return 'differential: N and K must be integers, N > 0';
  return { system, universes, seed };
}

async function runSuite(file: string, universes: number, seed: number): Promise<Assertion[]> {
  const dir = await mkdtemp(join(tmpdir(), 'differential-'));
  const out = join(dir, 'report.json');
  try {
    const code = await new Promise<number>((resolve) => {
      const child = spawn(
        'npx',
        [
          'vitest',
          'run',
          '--project',
          'e2e',
          `test/http/insights/dependencies/${file}`,
          '--reporter=json',
          `--outputFile=${out}`,
        ],
        {
          stdio: ['ignore', 'ignore', 'inherit'],
          env: { ...process.env, DIFFERENTIAL_UNIVERSES: String(universes), DIFFERENTIAL_SEED: String(seed) },
        },
      );
      child.on('close', (c) => resolve(c ?? 1));
    });
    const report = JSON.parse(await readFile(out, 'utf8').catch(() => '{}')) as {
      testResults?: { assertionResults: Assertion[]; message?: string }[];
    };
    const results = report.testResults ?? [];
    if (results.length === 0) throw new Error(`the suite did not report (vitest exited ${code})`);
    for (const r of results) if (r.message) console.log(`differential: suite error: ${r.message.split('\n')[0]}`);
    return results.flatMap((r) => r.assertionResults);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const a = args(process.argv.slice(2));
  if (typeof a === 'string') {
    console.error(a);
    return 2;
  }
  const { system, universes, seed } = a;
  const all = await runSuite(SUITES[system]!.file, universes, seed);
  const random = all.filter((t) => t.title.startsWith('random universe'));
  const compared = random.filter((t) => t.status === 'passed' || t.status === 'failed');
  let different = 0;
  for (const t of all) {
    if (t.status !== 'failed') continue;
    if (random.includes(t)) different++;
    const first = (t.failureMessages[0] ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
    console.log(`differential: ${system} ${t.title}: ${first.trim().slice(0, 300)}`);
  }
  if (compared.length < universes)
    console.log(
      `differential: ${system} ${universes - compared.length} universes not compared (skipped: is the tool installed?)`,
    );
  console.log(`differential: ${system} ${compared.length} universes, ${different} different`);
  return different > 0 || compared.length < universes || all.some((t) => t.status === 'failed') ? 1 : 0;
}

process.exitCode = await main();
