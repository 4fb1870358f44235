/**
 * `npm run bundle:sizes`: bundles each function as a deploy would (`wrangler deploy --dry-run --env
 * <function> --outdir <tmp>/<function>`, nothing is uploaded), prints wrangler's upload size (raw and
 * gzip) per function, and checks from each bundle's source map that it holds only its own service:
 * the project files it may contain are listed in OWN below (a public service never carries another
 * one's code; `delivery` carries every service's queue handlers but no public route module).
 * Exits 1 when a bundle fails to build or holds a file it should not.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUNCTIONS, type FunctionName } from './stack/config.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Project files (paths from the repository root) each bundle may hold. */
const OWN: Record<FunctionName, (file: string) => boolean> = {
  insights: (f) => /^(functions\/insights\.ts|src\/(platform|insights|resolve|versions)\/)/.test(f),
  // marketplace emits webhook events through the platform's event contract (src/platform/events.ts)
  marketplace: (f) => /^(functions\/marketplace\.ts|src\/(platform|marketplace)\/)/.test(f),
  // pipeline hosts the webhook resource, whose catalogue holds the marketplace's events and their reflow
  // (functions/event-catalog.ts), which read its users and books through their queries
  pipeline: (f) =>
    /^(functions\/(pipeline|event-catalog)\.ts|src\/(platform|pipeline|webhooks)\/|src\/marketplace\/(book-status|events|queries-books|queries-users)\.ts$)/.test(
      f,
    ),
  delivery: (f) =>
    // delivery runs every service's jobs, so it reads every service's variables (functions/config.ts), and delivers
    // the services' events (functions/event-catalog.ts)
    /^(functions\/(delivery|config|event-catalog)\.ts|src\/)/.test(f) &&
    !/^src\/[a-z]+\/(routes[^/]*|render\/pages)\.ts$/.test(f),
};

const out = await mkdtemp(join(tmpdir(), 'bundles-'));
let failed = false;
const rows: string[] = [];
for (const fn of FUNCTIONS) {
  const dir = join(out, fn);
  const wrangler = join(ROOT, 'node_modules/wrangler/bin/wrangler.js');
  const r = spawnSync(process.execPath, [wrangler, 'deploy', '--dry-run', '--env', fn, '--outdir', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', FORCE_COLOR: '0' },
  });
  const size = /Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/.exec(r.stdout + r.stderr);
  if (r.status !== 0 || !size) {
    failed = true;
    rows.push(`${fn.padEnd(12)} build failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`);
    continue;
  }
  const map = JSON.parse(await readFile(join(dir, `${fn}.js.map`), 'utf8')) as {
    sources: string[];
    sourceRoot?: string;
  };
  // sources are relative to the map's folder (and its sourceRoot): resolved there, then read from the repository root
  // wrangler's `node-built-in-modules:<name>` entries stand for Node built-ins a library requires (nodejs_compat
  // provides them: @sigstore's `crypto` and `util` in delivery), not for files of the project
  const files = map.sources
    .filter((s) => !s.includes('node_modules/') && !s.includes('node-built-in-modules:'))
    .map((s) => relative(ROOT, resolve(dir, map.sourceRoot ?? '', s)));
  const foreign = files.filter((f) => !OWN[fn](f));
  if (foreign.length) failed = true;
  rows.push(
    `${fn.padEnd(12)} ${size[1]!.padStart(11)}  gzip ${size[2]!.padStart(11)}  ${files.length} project files` +
      (foreign.length ? `  FOREIGN: ${foreign.join(', ')}` : ''),
  );
}
await rm(out, { recursive: true, force: true });
console.log(`function     upload (minified)  gzip\n${rows.join('\n')}`);
process.exit(failed ? 1 : 0);
