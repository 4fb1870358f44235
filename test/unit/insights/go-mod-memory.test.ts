/** The isolate's memory of Go go.mod files: what it keeps, its bound, its scope (one per env object). */
import { describe, expect, it } from 'vitest';
import { GoModMemory, goModMemory } from '../../../src/insights/go-mod-memory.ts';
import type { Dependency } from '../../../src/resolve/types.ts';

const dep = (name: string, requirement: string, modulego = '1.17'): Dependency => ({
  name,
  requirement,
  attrs: { modulego },
});

describe('GoModMemory', () => {
  it('keeps complete go.mod files and answers them', () => {
    const m = new GoModMemory(1 << 20);
    m.put('a.test/x', 'v1.0.0', { deps: [dep('a.test/y', 'v1.2.0')], listed: true });
    m.put('a.test/empty', 'v1.0.0', { deps: [], listed: false });
    expect(m.get('a.test/x', 'v1.0.0')?.deps.map((d) => d.requirement)).toEqual(['v1.2.0']);
    expect(m.get('a.test/empty', 'v1.0.0')).toEqual({ deps: [], listed: false });
    expect(m.get('a.test/x', 'v1.0.1')).toBeUndefined();
  });

  it('never keeps a go.mod read before its go directive was known', () => {
    const m = new GoModMemory(1 << 20);
    m.put('a.test/x', 'v1.0.0', { deps: [{ name: 'a.test/y', requirement: 'v1.0.0', attrs: {} }], listed: true });
    expect(m.get('a.test/x', 'v1.0.0')).toBeUndefined();
  });

  it('a version once known listed stays listed', () => {
    const m = new GoModMemory(1 << 20);
    m.put('a.test/x', 'v1.0.0', { deps: [], listed: true });
    m.put('a.test/x', 'v1.0.0', { deps: [], listed: false });
    expect(m.get('a.test/x', 'v1.0.0')?.listed).toBe(true);
  });

  it('stays within its bound, the least recently used first out', () => {
    const one = new GoModMemory(1 << 20);
    one.put('a.test/m0', 'v1.0.0', { deps: [dep('a.test/y', 'v1.0.0')], listed: true });
    const each = one.size;
    const m = new GoModMemory(each * 3);
    for (const i of [0, 1, 2]) m.put(`a.test/m${i}`, 'v1.0.0', { deps: [dep('a.test/y', 'v1.0.0')], listed: true });
    expect(m.get('a.test/m0', 'v1.0.0')).toBeDefined(); // m0 is now the most recently used
    m.put('a.test/m3', 'v1.0.0', { deps: [dep('a.test/y', 'v1.0.0')], listed: true });
    expect(m.size).toBeLessThanOrEqual(each * 3);
    expect(m.get('a.test/m1', 'v1.0.0')).toBeUndefined();
    expect(m.get('a.test/m0', 'v1.0.0')).toBeDefined();
    expect(m.get('a.test/m3', 'v1.0.0')).toBeDefined();
  });

  it('keeps nothing when off', () => {
    const m = new GoModMemory(0);
    m.put('a.test/x', 'v1.0.0', { deps: [], listed: true });
    m.markGraphStored('k');
    expect(m.get('a.test/x', 'v1.0.0')).toBeUndefined();
    expect(m.graphStored('k')).toBe(false);
  });

  it('is one memory per env object, sized by INSIGHTS_GO_MEMORY_BYTES', () => {
    const env = { INSIGHTS_GO_MEMORY_BYTES: '4096' };
    expect(goModMemory(env)).toBe(goModMemory(env));
    expect(goModMemory(env).limit).toBe(4096);
    expect(goModMemory({})).not.toBe(goModMemory({}));
    expect(goModMemory({}).limit).toBe(8 * 1024 * 1024);
  });
});
