/** tools/explicit-any.ts: what counts as an `any`, and src/ holds no more than docs/platform.md allows. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anyUses } from '../../../tools/explicit-any.ts';
import { sourceFiles } from '../../../tools/longest-functions.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The allowance: `- \`src/...\` (N): reason` lines of docs/platform.md's "Explicit any" section. */
function allowance(): Map<string, number> {
  const doc = readFileSync(`${ROOT}docs/platform.md`, 'utf8');
  const section = doc.slice(doc.indexOf('## Explicit any'), doc.indexOf('\n## ', doc.indexOf('## Explicit any') + 1));
  return new Map([...section.matchAll(/^- `(src\/[^`]+)` \((\d+)\): \S/gm)].map((m) => [m[1]!, Number(m[2])]));
}

describe('explicit any', () => {
  it('counts the keyword in every type position, not the word in comments and strings', () => {
    const source = `// any comment
const a: any = 1;
const b = a as any;
const c: any[] = [];
type D = Record<string, any>;
function f<T = any>(x: Array<any>): T { return x as never; }
const s = 'any';
`;
    expect(anyUses('/x/src/a.ts', source).map((u) => [u.line, u.in])).toEqual([
      [2, 'a: any = 1'],
      [3, 'a as any'],
      [4, 'any[]'],
      [5, 'Record<string, any>'],
      [6, 'T = any'],
      [6, 'Array<any>'],
    ]);
  });

  it('src/ has only the any docs/platform.md lists, with its reason', () => {
    const allowed = allowance();
    expect(allowed.size).toBeGreaterThan(0);
    const counts = new Map<string, number>();
    for (const u of sourceFiles(`${ROOT}src`).flatMap((f) => anyUses(f))) {
      const file = u.file.slice(ROOT.length);
      counts.set(file, (counts.get(file) ?? 0) + 1);
    }
    const over = [...counts].filter(([file, n]) => n > (allowed.get(file) ?? 0)).map(([file, n]) => `${file}: ${n}`);
    expect(over).toEqual([]);
    // the list names no file that no longer needs it
    const stale = [...allowed].filter(([file, n]) => (counts.get(file) ?? 0) < n).map(([file]) => file);
    expect(stale).toEqual([]);
  });
});
