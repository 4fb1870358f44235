/**
 * `npm run differential -- --system S --universes N --seed K`: N seeded random universes of system S
 * (seeds K..K+N-1), each resolved by the real tool and by the insights worker through its
 * GetDependencies endpoint on an emptied schema, with the universe served from loopback. It runs the
 * system's end-to-end suite (test/http/insights/dependencies/e2e-<S>.test.ts, the e2e vitest
 * project: PGlite, the Neon-compatible proxy, the local QStash) with DIFFERENTIAL_UNIVERSES and
 * DIFFERENTIAL_SEED set (tools/universes/differential-seeds.ts), so the comparison is the suite's own.
 * Prints one line per universe that differs (`differential: S <universe>: <first line of the failure>`)
 * and `differential: S N universes, D different`; a universe on which the tool itself failed (the suite
 * records it with toolFailure: npm crashing, hanging or locking a tree that misses a dependency, pip's
 * RecursionError) gets a `tool failure` line and is counted apart from the N compared; exits 1 when some differ or could not be compared
 * (the tool is missing: the suite skips, and that is said), 2 on bad arguments.
 *
 * Systems: npm (npm, tools/universes/npm-random.ts), pypi (`$PYTHON -m pip`, python3 when unset; the
 * service follows pip >= 23.3, docs/resolve.md, so give PYTHON a Python with such a pip), cargo
 * (cargo), maven (mvn), go (go), rubygems (bundle).
 */
import { spawn, spawnSync } from 'node:child_process';
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

async function runSuite(
  file: string,
  universes: number,
  seed: number,
): Promise<{ all: Assertion[]; toolFailures: Map<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'differential-'));
  const out = join(dir, 'report.json');
  const failuresFile = join(dir, 'tool-failures.tsv');
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
          env: {
            ...process.env,
            DIFFERENTIAL_UNIVERSES: String(universes),
            DIFFERENTIAL_SEED: String(seed),
            DIFFERENTIAL_TOOL_FAILURES: failuresFile,
          },
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
    const lines = (await readFile(failuresFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    const toolFailures = new Map(lines.map((l) => l.split('\t') as [string, string]));
    return { all: results.flatMap((r) => r.assertionResults), toolFailures };
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
  if (system === 'pypi') {
    // the suite's oracle is `$PYTHON -m pip` (python3 when unset); the service follows pip >= 23.3
    const py = process.env.PYTHON ?? 'python3';
    const v = spawnSync(py, ['-m', 'pip', '--version'], { encoding: 'utf8' }).stdout.trim().split(' from ')[0];
    console.log(`differential: pypi compares with ${v || 'no pip'} (${py})`);
  }
  const { all, toolFailures } = await runSuite(SUITES[system]!.file, universes, seed);
  const random = all.filter((t) => t.title.startsWith('random universe'));
  const ran = random.filter((t) => t.status === 'passed' || t.status === 'failed');
  const compared = ran.filter((t) => !toolFailures.has(t.title));
  for (const [title, reason] of toolFailures) console.log(`differential: ${system} ${title}: tool failure: ${reason}`);
  let different = 0;
  for (const t of all) {
    if (t.status !== 'failed') continue;
    if (random.includes(t)) different++;
    const first = (t.failureMessages[0] ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
    console.log(`differential: ${system} ${t.title}: ${first.trim().slice(0, 300)}`);
  }
  if (ran.length < universes)
    console.log(
      `differential: ${system} ${universes - ran.length} universes not compared (skipped: is the tool installed?)`,
    );
  const apart = toolFailures.size > 0 ? ` (${toolFailures.size} more where the tool itself failed, not compared)` : '';
  console.log(`differential: ${system} ${compared.length} universes, ${different} different${apart}`);
  return different > 0 || ran.length < universes || all.some((t) => t.status === 'failed') ? 1 : 0;
}

process.exitCode = await main();
