/**
 * PEP 508 environment markers, evaluated like packaging.markers for one environment, by default
 * PYTHON_ENV: CPython 3.12 on generic 64-bit Linux (x86_64, glibc); another marker environment
 * (e.g. pip's `default_environment()` of a real interpreter) can be passed. Version operators compare as PEP 440
 * specifiers when both sides are versions, else as strings (`==`, `!=`, `in`, `not in`; other
 * operators on non-versions are false). `extra` compares PEP 503-normalised names; a marker is
 * true when it holds for no extra or for any requested extra (pkg_resources' requires(extras)).
 */
import { parseRequirement } from '../versions/index.ts';
import { normalizePypiName } from '../versions/names/index.ts';

/** PEP 508 marker variables (os_name, sys_platform, python_version, ...), as packaging names them. */
export type PythonEnv = Readonly<Record<string, string>>;

export const PYTHON_ENV: PythonEnv = Object.freeze({
  os_name: 'posix',
  sys_platform: 'linux',
  platform_machine: 'x86_64',
  platform_python_implementation: 'CPython',
  platform_release: '6.8.0',
  platform_system: 'Linux',
  platform_version: '#1 SMP',
  python_version: '3.12',
  python_full_version: '3.12.7',
  implementation_name: 'cpython',
  implementation_version: '3.12.7',
});

type Node = { k: 'and' | 'or'; a: Node; b: Node } | { k: 'cmp'; l: Operand; op: string; r: Operand };
type Operand = { v: string } | { var: string };

const TOKEN = /\s*(\(|\)|===|==|!=|<=|>=|~=|<|>|not\s+in\b|in\b|and\b|or\b|'[^']*'|"[^"]*"|[A-Za-z_.]+)/y;

function tokenize(s: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let i = 0;
  while (i < s.length) {
    if (/^\s*$/.test(s.slice(i))) break;
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(s);
    if (!m) throw new Error(`invalid marker at ${i}: ${s}`);
    out.push(m[1]!.replace(/\s+/g, ' '));
    i = TOKEN.lastIndex;
  }
  return out;
}

export function parseMarker(s: string): Node {
  const t = tokenize(s);
  let p = 0;
  const operand = (): Operand => {
    const x = t[p++];
    if (x === undefined) throw new Error('unexpected end of marker');
    if (/^['"]/.test(x)) return { v: x.slice(1, -1) };
    return { var: x.replace(/\./g, '_') };
  };
  const expr = (): Node => {
    if (t[p] === '(') {
      p++;
      const e = or();
      if (t[p++] !== ')') throw new Error('expected )');
      return e;
    }
    const l = operand();
    const op = t[p++];
    if (!op) throw new Error('expected operator');
    return { k: 'cmp', l, op, r: operand() };
  };
  const and = (): Node => {
    let a = expr();
    while (t[p] === 'and') {
      p++;
      a = { k: 'and', a, b: expr() };
    }
    return a;
  };
  const or = (): Node => {
    let a = and();
    while (t[p] === 'or') {
      p++;
      a = { k: 'or', a, b: and() };
    }
    return a;
  };
  const n = or();
  if (p !== t.length) throw new Error(`trailing tokens in marker: ${s}`);
  return n;
}

function compareOp(l: string, op: string, r: string, isExtra: boolean): boolean {
  if (isExtra) {
    l = normalizePypiName(l);
    r = normalizePypiName(r);
  }
  if (op === 'in') return r.includes(l);
  if (op === 'not in') return !r.includes(l);
  if (!isExtra && op !== '===') {
    const req = parseRequirement('PYPI', `${op}${r}`, { includePrerelease: true });
    if (req.ok && /^\s*v?\d/.test(l)) return req.requirement.matches(l);
  }
  if (op === '==' || op === '===') return l === r;
  if (op === '!=') return l !== r;
  return false;
}

function evalNode(n: Node, env: Record<string, string>): boolean {
  if (n.k !== 'cmp')
    return n.k === 'and' ? evalNode(n.a, env) && evalNode(n.b, env) : evalNode(n.a, env) || evalNode(n.b, env);
  const val = (o: Operand) => ('v' in o ? o.v : (env[o.var] ?? ''));
  const isExtra = ('var' in n.l && n.l.var === 'extra') || ('var' in n.r && n.r.var === 'extra');
  return compareOp(val(n.l), n.op, val(n.r), isExtra);
}

const cache = new Map<string, Node | null>();

/** True when the marker holds in `env` for no extra or one of `extras`; bad markers are false. */
export function evaluateMarker(marker: string, extras: ReadonlySet<string>, env: PythonEnv = PYTHON_ENV): boolean {
  let n = cache.get(marker);
  if (n === undefined) {
    try {
      n = parseMarker(marker);
    } catch {
      n = null;
    }
    if (cache.size > 5000) cache.clear();
    cache.set(marker, n);
  }
  if (n === null) return false;
  for (const extra of ['', ...extras]) if (evalNode(n, { ...env, extra })) return true;
  return false;
}
