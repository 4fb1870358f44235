/**
 * Target filters of Cargo's `[target.'...'.dependencies]`, evaluated for one platform.
 * A filter is either a target triple (matches when equal to the platform's) or `cfg(<predicate>)`
 * with predicates `all(...)`, `any(...)`, `not(p)`, a bare name (`unix`) or `key = "value"`,
 * following cargo-platform's CfgExpr. The cfg set is what `rustc --print cfg --target
 * x86_64-unknown-linux-gnu` prints (rustc 1.95, no -O, so `debug_assertions` is set).
 * Unknown names and keys are false; a filter that does not parse matches nothing (Cargo refuses
 * to publish such a manifest, so it only appears in hand-made data).
 */

export interface CargoPlatform {
  readonly triple: string;
  readonly cfg: ReadonlySet<string>; // `name` or `key="value"`
}

const LINUX_CFG = [
  'debug_assertions',
  'panic="unwind"',
  'target_abi=""',
  'target_arch="x86_64"',
  'target_endian="little"',
  'target_env="gnu"',
  'target_family="unix"',
  'target_feature="fxsr"',
  'target_feature="sse"',
  'target_feature="sse2"',
  'target_has_atomic="16"',
  'target_has_atomic="32"',
  'target_has_atomic="64"',
  'target_has_atomic="8"',
  'target_has_atomic="ptr"',
  'target_os="linux"',
  'target_pointer_width="64"',
  'target_vendor="unknown"',
  'unix',
];

export const LINUX_X86_64: CargoPlatform = { triple: 'x86_64-unknown-linux-gnu', cfg: new Set(LINUX_CFG) };

type Tok = { t: 'id' | 'str' | '(' | ')' | ',' | '='; v: string };

function tokenize(s: string): Tok[] | null {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) i++;
    else if ('(),='.includes(c)) {
      out.push({ t: c as Tok['t'], v: c });
      i++;
    } else if (c === '"') {
      const j = s.indexOf('"', i + 1);
      if (j < 0) return null;
      out.push({ t: 'str', v: s.slice(i + 1, j) });
      i = j + 1;
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i));
      if (!m) return null;
      out.push({ t: 'id', v: m[0] });
      i += m[0].length;
    }
  }
  return out;
}

/** Parses and evaluates one predicate starting at toks[pos]; returns [value, next pos] or null. */
function evalPred(toks: Tok[], pos: number, cfg: ReadonlySet<string>): [boolean, number] | null {
  const id = toks[pos];
  if (id?.t !== 'id') return null;
  const next = toks[pos + 1];
  if ((id.v === 'all' || id.v === 'any' || id.v === 'not') && next?.t === '(') {
    const vals: boolean[] = [];
    let p = pos + 2;
    while (toks[p]?.t !== ')') {
      const r = evalPred(toks, p, cfg);
      if (!r) return null;
      vals.push(r[0]);
      p = r[1];
      if (toks[p]?.t === ',') p++;
      else if (toks[p]?.t !== ')') return null;
    }
    if (id.v === 'not' && vals.length !== 1) return null;
    const v = id.v === 'all' ? vals.every(Boolean) : id.v === 'any' ? vals.some(Boolean) : !vals[0];
    return [v, p + 1];
  }
  if (next?.t === '=') {
    const str = toks[pos + 2];
    if (str?.t !== 'str') return null;
    return [cfg.has(`${id.v}="${str.v}"`), pos + 3];
  }
  return [cfg.has(id.v), pos + 1];
}

/** Whether a dependency with this target filter ('' = every platform) applies on the platform. */
export function targetMatches(target: string, platform: CargoPlatform = LINUX_X86_64): boolean {
  const t = target.trim();
  if (t === '') return true;
  const m = /^cfg\((.*)\)$/s.exec(t);
  if (!m) return t === platform.triple;
  const toks = tokenize(m[1]!);
  if (!toks || toks.length === 0) return false;
  const r = evalPred(toks, 0, platform.cfg);
  return r !== null && r[1] === toks.length && r[0];
}
