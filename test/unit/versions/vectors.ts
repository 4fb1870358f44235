/**
 * Loads every conformance vector in ../shared/conformance/ for the seven systems and turns each into
 * a named check. The conformance test runs them and compares failures with its expected list.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as V from '../../../src/versions/index.ts';
import type { System } from '../../../src/versions/index.ts';

export const CONFORMANCE = new URL('../../../../shared/conformance/', import.meta.url);

export interface Check {
  readonly id: string; // unique, stable
  readonly file: string;
  readonly system: System;
  run(): string | null; // null = pass, otherwise what went wrong
}

const SEVEN = new Set<string>(V.SYSTEMS);
const sgn = (n: number): number => Math.sign(n);

function cmpCheck(file: string, system: System, id: string, a: string, b: string, want: number): Check {
  return {
    id,
    file,
    system,
    run() {
      const ab = V.compare(system, a, b);
      const ba = V.compare(system, b, a);
      return ab === want && ba === -want ? null : `compare(${a}, ${b}) = ${ab}, reverse ${ba}, want ${want}`;
    },
  };
}

interface Vectors {
  compare: { system: string; a: string; b: string; want: number }[];
  sequential: { system: string; ascending: string[] }[];
  match: {
    system: string;
    constraint: string;
    mode: string;
    universe?: string[];
    matches?: string[];
    must_not_match?: string[];
  }[];
  canon: { system: string; input: string; canon: string }[];
  constraint_errors: { system: string; constraint: string }[];
  parse: { system: string; input: string; valid: boolean; numbers?: string }[];
}

function semverVectorChecks(): Check[] {
  const file = 'semver_vectors.json';
  const d = JSON.parse(readFileSync(new URL(file, CONFORMANCE), 'utf8')) as Vectors;
  const out: Check[] = [];
  const seen = new Set<string>();
  const push = (c: Check): void => {
    if (seen.has(c.id)) return; // identical rows from different Go tables
    seen.add(c.id);
    out.push(c);
  };
  for (const r of d.compare) {
    if (!SEVEN.has(r.system)) continue;
    push(
      cmpCheck(
        file,
        r.system as System,
        `compare ${r.system} ${JSON.stringify(r.a)} ${JSON.stringify(r.b)}`,
        r.a,
        r.b,
        r.want,
      ),
    );
  }
  for (const r of d.sequential) {
    if (!SEVEN.has(r.system)) continue;
    const sys = r.system as System;
    push({
      id: `sequential ${sys}`,
      file,
      system: sys,
      run() {
        const l = r.ascending;
        const bad: string[] = [];
        for (let i = 0; i < l.length; i++)
          for (let j = 0; j < l.length; j++)
            if (V.compare(sys, l[i]!, l[j]!) !== sgn(i - j)) bad.push(`${l[i]} vs ${l[j]}`);
        return bad.length ? bad.slice(0, 4).join('; ') : null;
      },
    });
  }
  for (const r of d.match) {
    if (!SEVEN.has(r.system)) continue;
    const sys = r.system as System;
    const pre = r.mode.endsWith('_prerelease');
    push({
      id: `match ${sys} ${r.mode} ${JSON.stringify(r.constraint)}${r.universe ? ` u${r.universe.length}` : ''}`,
      file,
      system: sys,
      run() {
        const opts = { includePrerelease: pre };
        if (r.mode.startsWith('no_match')) {
          const wrong = r.must_not_match!.filter((v) => V.satisfies(sys, v, r.constraint, opts));
          return wrong.length ? `unexpectedly matched ${wrong.join(' ')}` : null;
        }
        const want = new Set(r.matches);
        const extra = r.universe!.filter((v) => V.satisfies(sys, v, r.constraint, opts) && !want.has(v));
        const missing = r.universe!.filter((v) => !V.satisfies(sys, v, r.constraint, opts) && want.has(v));
        if (!extra.length && !missing.length) return null;
        const pr = V.parseRequirement(sys, r.constraint, opts);
        return `extra [${extra.join(' ')}] missing [${missing.join(' ')}]${pr.ok ? '' : ` (${pr.error})`}`;
      },
    });
  }
  for (const r of d.canon) {
    if (!SEVEN.has(r.system)) continue;
    const sys = r.system as System;
    push({
      id: `canon ${sys} ${JSON.stringify(r.input)}`,
      file,
      system: sys,
      run() {
        const c = V.canon(sys, r.input);
        if (c !== r.canon) return `canon ${JSON.stringify(c)}, want ${JSON.stringify(r.canon)}`;
        const again = V.canon(sys, c);
        return again === c ? null : `not idempotent: ${again}`;
      },
    });
  }
  for (const r of d.constraint_errors) {
    if (!SEVEN.has(r.system)) continue;
    const sys = r.system as System;
    push({
      id: `constraint_error ${sys} ${JSON.stringify(r.constraint)}`,
      file,
      system: sys,
      run: () => (V.parseRequirement(sys, r.constraint).ok ? 'accepted' : null),
    });
  }
  for (const r of d.parse) {
    if (!SEVEN.has(r.system)) continue;
    const sys = r.system as System;
    push({
      id: `parse ${sys} ${JSON.stringify(r.input)}`,
      file,
      system: sys,
      run() {
        const wildcard = r.valid && ((r.numbers ?? '').includes('*') || r.input.includes('*'));
        if (wildcard) {
          const text = sys === 'PYPI' ? `==${r.input}` : r.input;
          const p = V.parseRequirement(sys, text);
          return p.ok ? null : `wildcard rejected: ${p.error}`;
        }
        const ok = V.isValid(sys, r.input);
        return ok === r.valid ? null : `isValid = ${ok}`;
      },
    });
  }
  return out;
}

const OSV_FILES: Record<string, System[]> = {
  'semver-versions.txt': ['NPM', 'CARGO', 'GO'],
  'maven-versions.txt': ['MAVEN'],
  'maven-versions-generated.txt': ['MAVEN'],
  'pypi-versions.txt': ['PYPI'],
  'pypi-versions-generated.txt': ['PYPI'],
  'nuget-versions.txt': ['NUGET'],
  'rubygems-versions.txt': ['RUBYGEMS'],
  'rubygems-versions-generated.txt': ['RUBYGEMS'],
};

function osvChecks(): Check[] {
  const out: Check[] = [];
  const dir = new URL('osv-scalibr-semantic/', CONFORMANCE);
  const present = new Set(readdirSync(fileURLToPath(dir)));
  for (const [name, systems] of Object.entries(OSV_FILES)) {
    if (!present.has(name)) continue;
    const lines = readFileSync(new URL(name, dir), 'utf8').split('\n');
    for (const sys of systems) {
      lines.forEach((line, n) => {
        if (line.trim() === '' || line.startsWith('# ') || line.startsWith('// ')) return;
        const [a0, op, b0] = line.split(' ');
        // OSV writes Go versions without the `v` the go command requires.
        const fix = (s: string): string => (sys === 'GO' && !s.startsWith('v') ? `v${s}` : s);
        const want = op === '<' ? -1 : op === '>' ? 1 : 0;
        out.push(
          cmpCheck(`osv-scalibr-semantic/${name}`, sys, `${name}:${n + 1} ${sys} ${line}`, fix(a0!), fix(b0!), want),
        );
      });
    }
  }
  return out;
}

type Opts = boolean | { loose?: unknown; includePrerelease?: boolean } | undefined;

function nodeSemverChecks(): Check[] {
  const require = createRequire(import.meta.url);
  const load = <T>(f: string): T => require(fileURLToPath(new URL(`node-semver/${f}`, CONFORMANCE))) as T;
  const out: Check[] = [];
  const sys: System = 'NPM';
  const inc = (o: Opts): boolean => typeof o === 'object' && o !== null && o.includePrerelease === true;
  load<[string, string, Opts?][]>('comparisons.js').forEach(
    ([a, b], i) =>
      void out.push(cmpCheck('node-semver/comparisons.js', sys, `comparisons.js#${i} ${a} > ${b}`, a, b, 1)),
  );
  load<[string, string, Opts?][]>('equality.js').forEach(
    ([a, b], i) => void out.push(cmpCheck('node-semver/equality.js', sys, `equality.js#${i} ${a} == ${b}`, a, b, 0)),
  );
  for (const [f, want] of [
    ['range-include.js', true],
    ['range-exclude.js', false],
  ] as const) {
    load<[string, unknown, Opts?][]>(f).forEach(
      ([range, version, o], i) =>
        void out.push({
          id: `${f}#${i} ${JSON.stringify(range)} ${JSON.stringify(version)}${inc(o) ? ' includePrerelease' : ''}`,
          file: `node-semver/${f}`,
          system: sys,
          run() {
            const got = V.satisfies(sys, version as string, range, { includePrerelease: inc(o) });
            return got === want ? null : `satisfies = ${got}`;
          },
        }),
    );
  }
  load<[string, number, number, number, (string | number)[], string[]][]>('valid-versions.js').forEach(
    ([v, M, m, p, pre, build], i) =>
      void out.push({
        id: `valid-versions.js#${i} ${v}`,
        file: 'node-semver/valid-versions.js',
        system: sys,
        run() {
          let want = `${M}.${m}.${p}`;
          if (pre.length) want += `-${pre.join('.')}`;
          if (build.length) want += `+${build.join('.')}`;
          const c = V.canon(sys, v);
          return c === want ? null : `canon ${c}, want ${want}`;
        },
      }),
  );
  return out;
}

export function allChecks(): Check[] {
  return [...semverVectorChecks(), ...osvChecks(), ...nodeSemverChecks()];
}
