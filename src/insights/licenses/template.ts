/**
 * Licence templates: SPDX's license-list template markup (`<<beginOptional>>`...`<<endOptional>>` and
 * `<<var;name=...;original=...;match="regex">>`) compiled to a program of words for match.ts, and that
 * program's compact text form (the generated templates-data.ts):
 *   word   a literal word (licenceWords: lower-case letters and digits)
 *   %N     a variable part: any 0..N words
 *   [ ]    an optional part
 * A variable's width in words comes from its `match` regex: the longest literal alternative, plus a
 * wide gap where the regex has `.+`, `.*` or `.{m,n}` (n characters read as n/6 words, at most
 * MAX_GAP). The regex itself is not run: the words around a variable anchor it, which is what keeps
 * the matcher on words alone.
 */
import { licenceWords } from './words.ts';

export type Tok = string | { v: number } | { o: Tok[] };

const MAX_GAP = 80;
const WIDE_GAP = 30;

/** The width in words of a variable whose SPDX `match` regex is given. */
export function varWidth(regex: string): number {
  let gap = 0;
  for (const m of regex.matchAll(/\.\{(\d+),(\d+)\}/g)) gap = Math.max(gap, Math.ceil(Number(m[2]) / 6));
  if (/\.[+*]/.test(regex)) gap = Math.max(gap, WIDE_GAP);
  const literal = regex.replace(/\.\{\d+,\d+\}|\.[+*]|\\./g, ' ').replace(/[()?[\]^$]/g, ' ');
  const longest = Math.max(0, ...literal.split('|').map((alt) => licenceWords(alt).words.length));
  return Math.min(MAX_GAP, longest + gap);
}

/** Parses SPDX template markup into a program. */
export function parseTemplate(markup: string): Tok[] {
  const root: Tok[] = [];
  const stack: Tok[][] = [root];
  const re = /<<(beginOptional|endOptional|var;(?:[^">]|"(?:[^"\\]|\\.)*")*)>>/g;
  let last = 0;
  const text = (s: string) => stack.at(-1)!.push(...licenceWords(s).words);
  for (const m of markup.matchAll(re)) {
    text(markup.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] === 'beginOptional') {
      const body: Tok[] = [];
      stack.at(-1)!.push({ o: body });
      stack.push(body);
    } else if (m[1] === 'endOptional') {
      if (stack.length > 1) stack.pop();
    } else {
      const match = /;match="((?:[^"\\]|\\.)*)"/.exec(m[1]!)?.[1] ?? '.+';
      stack.at(-1)!.push({ v: varWidth(match.replace(/\\"/g, '"')) });
    }
  }
  text(markup.slice(last));
  return root;
}

export function encodeProgram(toks: Tok[]): string {
  return toks
    .map((t) => (typeof t === 'string' ? t : 'v' in t ? `%${t.v}` : `[ ${encodeProgram(t.o)} ]`))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function decodeProgram(text: string): Tok[] {
  const root: Tok[] = [];
  const stack: Tok[][] = [root];
  for (const w of text.split(' ')) {
    if (!w) continue;
    if (w === '[') {
      const body: Tok[] = [];
      stack.at(-1)!.push({ o: body });
      stack.push(body);
    } else if (w === ']') stack.pop();
    else if (w.startsWith('%')) stack.at(-1)!.push({ v: Number(w.slice(1)) });
    else stack.at(-1)!.push(w);
  }
  return root;
}
