/** tools/longest-functions.ts: what counts as a function, its name and its length in lines. */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { folderOf, functionLengths, sourceFiles } from '../../../tools/longest-functions.ts';

const SOURCE = `export function outer(a: number) {
  const inner = (b: number) => {
    return b + 1;
  };
  return inner(a);
}
class Box {
  constructor() {}
  get size() { return 1; }
  grow(n: number) {
    return n;
  }
}
const text = 'function fake() { not code }';
items.map(function (x) { return x; });
`;

describe('longest functions', () => {
  it('measures declarations, arrows, methods, accessors and callbacks by the names a reader searches', () => {
    const got = functionLengths('/x/src/a.ts', SOURCE).map(({ name, line, lines }) => [name, line, lines]);
    expect(got).toEqual([
      ['outer', 1, 6],
      ['inner', 2, 3],
      ['Box.constructor', 8, 1],
      ['size', 9, 1],
      ['grow', 10, 3],
      ['<callback of items.map>', 15, 1],
    ]);
  });

  it('groups files by service under src/ and by folder under tools/', () => {
    expect(folderOf('/r/src/resolve/pypi.ts', '/r')).toBe('src/resolve');
    expect(folderOf('/r/tools/stack/qstash-server.ts', '/r')).toBe('tools/stack');
    expect(folderOf('/r/tools/start.ts', '/r')).toBe('tools');
  });

  it('no function in src/ or tools/ is longer than 120 lines', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const long = ['src', 'tools']
      .flatMap((dir) => sourceFiles(`${root}${dir}`))
      .flatMap((file) => functionLengths(file))
      .filter((f) => f.lines > 120)
      .map((f) => `${f.name} ${f.file.slice(root.length)}:${f.line} (${f.lines} lines)`);
    expect(long).toEqual([]);
  });
});
