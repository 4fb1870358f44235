/**
 * License text -> deps.dev `licenses[]` entry: a valid SPDX 2.1 expression (ids re-spelled in their
 * canonical case, `/` between Cargo ids read as OR), or `non-standard` when the text is not one.
 * Well-known license *names* (Maven `<license><name>`, PyPI trove classifiers) map to their id.
 * The id list holds the licenses seen in practice on these registries, not the full SPDX list: an
 * unknown id becomes `non-standard`, like deps.dev does for text it cannot identify.
 */
const IDS = `0BSD AFL-2.1 AFL-3.0 AGPL-1.0 AGPL-3.0 AGPL-3.0-only AGPL-3.0-or-later Apache-1.0 Apache-1.1 Apache-2.0
APSL-2.0 Artistic-1.0 Artistic-2.0 BlueOak-1.0.0 BSD-1-Clause BSD-2-Clause BSD-2-Clause-Patent BSD-3-Clause
BSD-3-Clause-Clear BSD-4-Clause BSL-1.0 CAL-1.0 CC-BY-3.0 CC-BY-4.0 CC-BY-SA-3.0 CC-BY-SA-4.0 CC-BY-NC-4.0 CC0-1.0
CDDL-1.0 CDDL-1.1 CECILL-2.1 CPAL-1.0 CPL-1.0 ECL-2.0 EFL-2.0 EPL-1.0 EPL-2.0 EUPL-1.1 EUPL-1.2 GFDL-1.3 GPL-1.0
GPL-2.0 GPL-2.0-only GPL-2.0-or-later GPL-3.0 GPL-3.0-only GPL-3.0-or-later HPND ICU ISC JSON LGPL-2.0 LGPL-2.0-only
LGPL-2.0-or-later LGPL-2.1 LGPL-2.1-only LGPL-2.1-or-later LGPL-3.0 LGPL-3.0-only LGPL-3.0-or-later LPPL-1.3c
MIT MIT-0 MIT-CMU MPL-1.0 MPL-1.1 MPL-2.0 MPL-2.0-no-copyleft-exception MS-PL MS-RL MulanPSL-2.0 NCSA
ODbL-1.0 OFL-1.1 OpenSSL OSL-3.0 PHP-3.01 PostgreSQL PSF-2.0 Python-2.0 Ruby Unicode-3.0 Unicode-DFS-2016
Unlicense UPL-1.0 Vim W3C WTFPL X11 Zlib zlib-acknowledgement ZPL-2.1`.split(/\s+/);

const EXCEPTIONS = ['Classpath-exception-2.0', 'LLVM-exception', 'GCC-exception-3.1', 'Autoconf-exception-3.0', 'Bison-exception-2.2', 'OpenJDK-assembly-exception-1.0'];

const BY_LOWER = new Map(IDS.map((id) => [id.toLowerCase(), id]));
const EXC_LOWER = new Map(EXCEPTIONS.map((id) => [id.toLowerCase(), id]));

/** Common license names (lower-cased) as found in POMs, nuspecs and trove classifiers. */
const NAMES: Record<string, string> = {
  'apache license, version 2.0': 'Apache-2.0',
  'the apache software license, version 2.0': 'Apache-2.0',
  'the apache license, version 2.0': 'Apache-2.0',
  'apache license 2.0': 'Apache-2.0',
  'apache 2.0': 'Apache-2.0',
  'apache-2.0 license': 'Apache-2.0',
  'apache 2': 'Apache-2.0',
  'apache software license': 'Apache-2.0',
  'the mit license': 'MIT',
  'mit license': 'MIT',
  'bsd license': 'BSD-3-Clause',
  'new bsd license': 'BSD-3-Clause',
  'bsd 3-clause license': 'BSD-3-Clause',
  'bsd-3-clause license': 'BSD-3-Clause',
  'eclipse public license - v 1.0': 'EPL-1.0',
  'eclipse public license v2.0': 'EPL-2.0',
  'eclipse public license - v 2.0': 'EPL-2.0',
  'gnu general public license v3 (gplv3)': 'GPL-3.0',
  'gnu lesser general public license': 'LGPL-2.1',
  'mozilla public license 2.0 (mpl 2.0)': 'MPL-2.0',
  'isc license (iscl)': 'ISC',
  'the unlicense (unlicense)': 'Unlicense',
};

type Tok = { t: 'id' | 'op' | '(' | ')'; v: string };

function tokenize(text: string): Tok[] | null {
  const out: Tok[] = [];
  for (const raw of text.replace(/[()]/g, ' $& ').trim().split(/\s+/)) {
    if (raw === '(' || raw === ')') out.push({ t: raw, v: raw });
    else if (/^(AND|OR|WITH)$/i.test(raw)) out.push({ t: 'op', v: raw.toUpperCase() });
    else if (/^[A-Za-z0-9.+-]+$/.test(raw)) out.push({ t: 'id', v: raw });
    else return null;
  }
  return out;
}

/** Canonical SPDX expression, or null when the text is not one. */
export function spdxExpression(text: string): string | null {
  const toks = tokenize(text);
  if (!toks || toks.length === 0) return null;
  let i = 0;
  const id = (): string | null => {
    const tok = toks[i];
    if (!tok) return null;
    if (tok.t === '(') {
      i++;
      const e = or();
      if (e === null || toks[i]?.t !== ')') return null;
      i++;
      return `(${e})`;
    }
    if (tok.t !== 'id') return null;
    i++;
    const plus = tok.v.endsWith('+');
    const base = plus ? tok.v.slice(0, -1) : tok.v;
    const known = base.startsWith('LicenseRef-') ? base : BY_LOWER.get(base.toLowerCase());
    if (!known) return null;
    let s = known + (plus ? '+' : '');
    if (toks[i]?.t === 'op' && toks[i]!.v === 'WITH') {
      const exc = toks[i + 1];
      const name = exc?.t === 'id' ? EXC_LOWER.get(exc.v.toLowerCase()) : undefined;
      if (!name) return null;
      i += 2;
      s += ` WITH ${name}`;
    }
    return s;
  };
  const and = (): string | null => {
    let left = id();
    while (left !== null && toks[i]?.t === 'op' && toks[i]!.v === 'AND') {
      i++;
      const right = id();
      left = right === null ? null : `${left} AND ${right}`;
    }
    return left;
  };
  const or = (): string | null => {
    let left = and();
    while (left !== null && toks[i]?.t === 'op' && toks[i]!.v === 'OR') {
      i++;
      const right = and();
      left = right === null ? null : `${left} OR ${right}`;
    }
    return left;
  };
  const e = or();
  return e !== null && i === toks.length ? e : null;
}

/** One license text (id, expression or name) -> the deps.dev entry. */
export function normalizeLicense(text: string): string {
  const t = text.trim();
  const named = NAMES[t.toLowerCase()];
  if (named) return named;
  return spdxExpression(t) ?? spdxExpression(t.replace(/\s*\/\s*/g, ' OR ')) ?? 'non-standard';
}

/** Several license texts -> entries, empty texts dropped, duplicates removed. */
export function normalizeLicenses(texts: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const t of texts) {
    if (typeof t !== 'string' || !t.trim()) continue;
    const n = normalizeLicense(t);
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** PyPI trove classifier `License :: OSI Approved :: MIT License` -> id, or null. */
export function licenseFromClassifier(classifier: string): string | null {
  const m = /^License :: (?:OSI Approved :: )?(.+)$/.exec(classifier);
  if (!m) return null;
  const n = NAMES[m[1]!.toLowerCase()];
  return n ?? null;
}
