/**
 * Licence detection on a file's text, on words (words.ts) against compiled SPDX templates (template.ts,
 * templates-data.ts), in the manner of google/licensecheck: find each template in the text, then judge
 * how much of the file the found licences cover.
 *
 * Finding a template: its leading parts up to the first three literal words in a row (title, copyright
 * line) are left off; those three words anchor it (an index of the text's word positions gives the places
 * to try). From an anchor the program is matched with backtracking: an optional part is tried with and
 * without, a variable of width N takes 0..N words (only gap lengths after which the next literal word
 * follows). A literal word that differs costs one from the template's error budget (1 per 40 of its
 * words, at least 2): the match resynchronises on the nearest place, at most 3 words on in the
 * template or the text, from which the next 3 template words follow (before a variable or optional part,
 * where no 3 words follow, only one word replaced or left out). So a stray word passes, but a
 * missing or extra clause (ISC vs 0BSD, BSD-2 vs BSD-3, MIT vs MIT-0 or X11) does not.
 *
 * Choosing: found spans that overlap keep the one covering more words (X11's text holds MIT's words
 * and more). Coverage is the share of the file's words inside kept spans, copyright lines not counted;
 * a file under COVERAGE_THRESHOLD percent, or with no span, is `non-standard` (pkgsite's rule of a
 * licence file whose text is not mostly known licence text).
 */
import { decodeProgram, type Tok } from './template.ts';
import { TEMPLATES } from './templates-data.ts';
import { licenceWords } from './words.ts';

export const COVERAGE_THRESHOLD = 75;
export const NON_STANDARD = 'non-standard';
const ANCHOR = 3;
/** A copyright notice line (not counted against coverage): "Copyright", "(c)" or "©" first, under 200 characters. */
const COPYRIGHT_LINE = /^[\W_]*(?:copyright\b|\(c\)|©).{0,200}$/i;
const RESYNC = 3;

interface Compiled {
  id: string;
  body: Tok[];
  anchor: string[];
  budget: number;
}

let compiled: Compiled[] | null = null;

function literalCount(toks: Tok[]): number {
  let n = 0;
  for (const t of toks) n += typeof t === 'string' ? 1 : 'o' in t ? literalCount(t.o) : 0;
  return n;
}

function compile(): Compiled[] {
  compiled ??= TEMPLATES.split('\n').map((line) => {
    const key = line.slice(0, line.indexOf(' '));
    const program = line.slice(key.length + 1);
    const id = key.replace(/#.*$/, ''); // `Apache-2.0#notice`: another template of the same licence
    const toks = decodeProgram(program);
    let start = 0;
    while (start < toks.length && literalsAt(toks, start, ANCHOR)?.length !== ANCHOR) start++;
    const body = toks.slice(start);
    const anchor: string[] = [];
    for (const t of body) {
      if (typeof t !== 'string' || anchor.length === ANCHOR) break;
      anchor.push(t);
    }
    return { id, body, anchor, budget: Math.max(2, Math.floor(literalCount(body) / 40)) };
  });
  return compiled;
}

/** The next literal words, at most `n`, of a program from `i` (stops at a variable or optional part). */
function literalsAt(toks: Tok[], i: number, n: number): string[] | null {
  const out: string[] = [];
  for (let j = i; j < toks.length && out.length < n; j++) {
    const t = toks[j];
    if (typeof t !== 'string') break;
    out.push(t);
  }
  return out.length === 0 ? null : out;
}

/** Matches one template at an anchor; the end of the match, or -1. */
function matchAt(c: Compiled, text: string[], start: number): number {
  let errors = 0;
  const follows = (want: string[], p: number) => want.every((w, k) => text[p + k] === w);

  const m = (toks: Tok[], i: number, p: number, k: (p: number) => number): number => {
    while (i < toks.length) {
      const t = toks[i]!;
      if (typeof t === 'string') {
        if (text[p] === t) {
          i++;
          p++;
          continue;
        }
        if (errors >= c.budget) return -1;
        // resynchronise: the nearest (dt, dp) from which the next template words follow in the text
        for (let d = 1; d <= RESYNC * 2; d++) {
          for (let dt = 0; dt <= Math.min(d, RESYNC); dt++) {
            const dp = d - dt;
            if (dp > RESYNC) continue;
            const want = literalsAt(toks, i + dt, RESYNC);
            // a variable or optional part (or the end) next: only one word replaced or left out, for what
            // follows to judge
            if (want === null ? dt !== 1 || dp > 1 || p + dp > text.length : !follows(want, p + dp)) continue;
            errors++;
            const r = m(toks, i + dt, p + dp, k);
            if (r >= 0) return r;
            errors--;
            return -1;
          }
        }
        return -1;
      }
      if ('v' in t) {
        const next = toks[i + 1];
        for (let g = 0; g <= t.v && p + g <= text.length; g++) {
          if (typeof next === 'string' && text[p + g] !== next) continue;
          const saved = errors;
          const r = m(toks, i + 1, p + g, k);
          if (r >= 0) return r;
          errors = saved;
        }
        return -1;
      }
      const saved = errors;
      const rest = i + 1;
      const r = m(t.o, 0, p, (q) => m(toks, rest, q, k));
      if (r >= 0) return r;
      errors = saved;
      i++;
    }
    return k(p);
  };
  return m(c.body, 0, start, (p) => p);
}

export interface LicenceMatch {
  id: string;
  /** Word positions [start, end). */
  start: number;
  end: number;
}

export interface Detection {
  matches: LicenceMatch[];
  /** Percent of the file's words (copyright lines left out) inside the matches. */
  coverage: number;
  /** SPDX ids in order of first appearance, or [NON_STANDARD]; [] for a file with no words. */
  ids: string[];
}

/** Detects the licences of one licence file's text. */
export function detectLicences(text: string): Detection {
  const { words, lines } = licenceWords(text);
  if (words.length === 0) return { matches: [], coverage: 0, ids: [] };
  const at = new Map<string, number[]>();
  words.forEach((w, i) => {
    const list = at.get(w);
    if (list) list.push(i);
    else at.set(w, [i]);
  });
  const found: LicenceMatch[] = [];
  for (const c of compile()) {
    const first = c.anchor[0];
    if (first === undefined) continue;
    let from = 0;
    for (const p of at.get(first) ?? []) {
      if (p < from || !c.anchor.every((w, k) => words[p + k] === w)) continue;
      const end = matchAt(c, words, p);
      if (end < 0) continue;
      found.push({ id: c.id, start: p, end });
      from = end;
    }
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: LicenceMatch[] = [];
  for (const f of found) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push(f);
  kept.sort((a, b) => a.start - b.start);

  const copyrightLines = new Set<number>();
  text.split(/\r\n|\r|\n/).forEach((row, n) => {
    if (COPYRIGHT_LINE.test(row) || (row.length < 100 && /all rights reserved/i.test(row))) copyrightLines.add(n);
  });
  let total = 0;
  let covered = 0;
  for (let i = 0; i < words.length; i++) {
    const inside = kept.some((k) => i >= k.start && i < k.end);
    if (!inside && copyrightLines.has(lines[i]!)) continue;
    total++;
    if (inside) covered++;
  }
  const coverage = total === 0 ? 100 : (100 * covered) / total;
  const ids = [...new Set(kept.map((k) => k.id))];
  return {
    matches: kept,
    coverage,
    ids: ids.length === 0 || coverage < COVERAGE_THRESHOLD ? [NON_STANDARD] : ids,
  };
}
