/** tools/import-graph.ts: no import circle in src/, and src/webhooks imports no service. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { forbiddenImports, importCircles, importGraph } from '../../../tools/import-graph.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('import graph', () => {
  it('finds circles of any length and a file importing itself, and nothing else', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(importCircles(g)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('names the imports the layering forbids', () => {
    const g = new Map([
      ['src/webhooks/catalog.ts', ['src/platform/events.ts', 'src/marketplace/queries-books.ts']],
      ['src/platform/db.ts', ['src/insights/config.ts']],
      ['src/marketplace/events.ts', ['src/platform/events.ts']],
    ]);
    expect(forbiddenImports(g)).toEqual([
      'src/platform/db.ts -> src/insights/config.ts',
      'src/webhooks/catalog.ts -> src/marketplace/queries-books.ts',
    ]);
  });

  it('reads multi-line and type-only imports of the real tree', () => {
    const g = importGraph(ROOT);
    expect(g.get('src/platform/app.ts')).toContain('src/platform/errors.ts');
    expect(g.get('src/platform/env.ts')).toContain('src/platform/db.ts'); // `import type`
  });

  it('src/ has no import circle', () => {
    expect(importCircles(importGraph(ROOT))).toEqual([]);
  });

  it('src/webhooks imports no service; platform, resolve and versions import none', () => {
    expect(forbiddenImports(importGraph(ROOT))).toEqual([]);
  });
});
