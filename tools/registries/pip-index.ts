/**
 * Real pip as an oracle for the PyPI resolver. A universe (`{project: {version: {deps,
 * requiresPython, yanked, extras}}}`) is written as a PEP 503 simple index on disk
 * (`simple/<name>/index.html` with `data-requires-python` and `data-yanked`, as PyPI serves them)
 * over minimal wheels (`name-version-py3-none-any.whl`: METADATA 2.1 with Requires-Dist,
 * Requires-Python and Provides-Extra, WHEEL, RECORD; written by python3's zipfile), then
 * `pip install --dry-run --report --ignore-installed --index-url file://.../simple root==v ...`
 * runs in a temporary directory and the report's `install[].metadata.{name,version}` is the answer.
 * The marker environment pip used is read from pip's own vendored packaging
 * (`default_environment()`), so the resolver can be run in the same environment.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryClient } from '../../src/resolve/memory-client.ts';
import type { PythonEnv } from '../../src/resolve/pypi-markers.ts';
import type { Attrs } from '../../src/resolve/types.ts';

export type PipDepSpec = readonly [
  name: string,
  specifier: string,
  opts?: { readonly extras?: string; readonly marker?: string },
];
export interface PipVersionSpec {
  readonly deps?: readonly PipDepSpec[];
  readonly requiresPython?: string;
  readonly yanked?: boolean;
  /** Provides-Extra beyond those named by `extra == "..."` markers. */
  readonly extras?: readonly string[];
}
export type PipUniverse = Readonly<Record<string, Readonly<Record<string, PipVersionSpec>>>>;

const PY = process.env.PYTHON ?? 'python3';
const ENV = {
  ...process.env,
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  PIP_NO_CACHE_DIR: '1',
  PIP_CONFIG_FILE: '/dev/null',
  PIP_NO_INPUT: '1',
};

export const HAS_PIP = spawnSync(PY, ['-m', 'pip', '--version'], { encoding: 'utf8', env: ENV }).status === 0;

/** The PEP 508 environment pip evaluates markers in (its vendored packaging's default_environment). */
export function pipEnvironment(): PythonEnv {
  const r = spawnSync(
    PY,
    ['-c', 'import json; from pip._vendor.packaging.markers import default_environment as d; print(json.dumps(d()))'],
    { encoding: 'utf8', env: ENV },
  );
  if (r.status !== 0) throw new Error(`cannot read pip's marker environment: ${r.stderr}`);
  return JSON.parse(r.stdout) as PythonEnv;
}

/** `pip --version`, e.g. "pip 23.2.1 from ... (python 3.11)". */
export const pipVersion = (): string =>
  spawnSync(PY, ['-m', 'pip', '--version'], { encoding: 'utf8', env: ENV }).stdout.trim();

export function pipClient(u: PipUniverse): MemoryClient {
  const c = new MemoryClient();
  for (const [name, versions] of Object.entries(u)) {
    for (const [version, spec] of Object.entries(versions)) {
      const attrs: Attrs = {};
      if (spec.yanked) attrs.blocked = '';
      if (spec.requiresPython) attrs.requirespython = spec.requiresPython;
      c.addVersion(
        { name, version, attrs },
        (spec.deps ?? []).map(([n, req, o]) => {
          const a: Attrs = {};
          if (o?.marker) a.environment = o.marker;
          if (o?.extras) a.enableddependencies = o.extras;
          return { name: n, requirement: req, attrs: a };
        }),
      );
    }
  }
  return c;
}

/** The universe with every project renamed `prefix + name` (so several universes share one index). */
export function prefixUniverse(u: PipUniverse, prefix: string): PipUniverse {
  return Object.fromEntries(
    Object.entries(u).map(([name, versions]) => [
      prefix + name,
      Object.fromEntries(
        Object.entries(versions).map(([v, s]) => [
          v,
          {
            ...s,
            ...(s.deps
              ? { deps: s.deps.map(([n, r, o]): PipDepSpec => (o ? [prefix + n, r, o] : [prefix + n, r])) }
              : {}),
          },
        ]),
      ),
    ]),
  );
}

function metadata(name: string, version: string, s: PipVersionSpec): string {
  const extras = new Set(s.extras ?? []);
  const lines = ['Metadata-Version: 2.1', `Name: ${name}`, `Version: ${version}`];
  if (s.requiresPython) lines.push(`Requires-Python: ${s.requiresPython}`);
  for (const [n, req, o] of s.deps ?? []) {
    for (const m of (o?.marker ?? '').matchAll(/extra\s*==\s*['"]([^'"]+)['"]/g)) extras.add(m[1]!);
    lines.push(
      `Requires-Dist: ${n}${o?.extras ? `[${o.extras}]` : ''}${req ? ` ${req}` : ''}${o?.marker ? `; ${o.marker}` : ''}`,
    );
  }
  for (const e of extras) lines.push(`Provides-Extra: ${e}`);
  return `${lines.join('\n')}\n`;
}

const BUILD = `
import html, json, os, sys, zipfile
root = sys.argv[1]
for p in json.load(open(os.path.join(root, 'universe.json'))):
    n, v = p['name'], p['version']
    base = n.replace('-', '_') + '-' + v
    whl = base + '-py3-none-any.whl'
    os.makedirs(os.path.join(root, 'files'), exist_ok=True)
    with zipfile.ZipFile(os.path.join(root, 'files', whl), 'w') as z:
        di = base + '.dist-info/'
        z.writestr(di + 'METADATA', p['metadata'])
        z.writestr(di + 'WHEEL', 'Wheel-Version: 1.0\\nGenerator: pip-index.ts\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')
        z.writestr(di + 'RECORD', di + 'METADATA,,\\n' + di + 'WHEEL,,\\n' + di + 'RECORD,,\\n')
    d = os.path.join(root, 'simple', n)
    os.makedirs(d, exist_ok=True)
    attrs = ''
    if p['requiresPython']: attrs += ' data-requires-python="%s"' % html.escape(p['requiresPython'])
    if p['yanked']: attrs += ' data-yanked=""'
    with open(os.path.join(d, 'index.html'), 'a') as f:
        f.write('<a href="../../files/%s"%s>%s</a><br/>\\n' % (whl, attrs, whl))
`;

export interface PipAnswer {
  ok: boolean;
  installs: string[];
  stderr: string;
}

function run(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(PY, args, { cwd, env: ENV, maxBuffer: 1 << 24 }, (err, _out, stderr) =>
      resolve({ code: err ? Number(err.code) || 1 : 0, stderr }),
    );
  });
}

/** Runs pip over the universe for `roots` (`name==version` each); installs as sorted `name@version`. */
export async function pipInstallReport(u: PipUniverse, roots: readonly string[]): Promise<PipAnswer> {
  const dir = mkdtempSync(join(tmpdir(), 'pip-oracle-'));
  try {
    const list = Object.entries(u).flatMap(([name, versions]) =>
      Object.entries(versions).map(([version, s]) => ({
        name,
        version,
        metadata: metadata(name, version, s),
        requiresPython: s.requiresPython ?? '',
        yanked: s.yanked === true,
      })),
    );
    writeFileSync(join(dir, 'universe.json'), JSON.stringify(list));
    const built = await run(['-c', BUILD, dir], dir);
    if (built.code !== 0) throw new Error(`building the index failed: ${built.stderr}`);
    const res = await run(
      [
        '-m',
        'pip',
        'install',
        '--dry-run',
        '--ignore-installed',
        '--quiet',
        '--report',
        join(dir, 'report.json'),
        '--index-url',
        `file://${join(dir, 'simple')}/`,
        '--only-binary',
        ':all:',
        ...roots,
      ],
      dir,
    );
    if (res.code !== 0) return { ok: false, installs: [], stderr: res.stderr };
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      install: { metadata: { name: string; version: string } }[];
    };
    return {
      ok: true,
      installs: report.install.map((i) => `${i.metadata.name}@${i.metadata.version}`).sort(),
      stderr: res.stderr,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
