/** issue 23: every SPDX id, deprecated id and exception is recognised, in any case; the generated table is current. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { normalizeLicense } from '../../../src/insights/ingest/licenses.ts';
import { spdxLists, spdxModule } from '../../../tools/gen-spdx-ids.ts';

const l = await spdxLists();

describe('SPDX ids (spdx-license-ids + spdx-exceptions)', () => {
  it('src/insights/ingest/spdx-ids.ts is what `npm run gen:spdx` writes from the installed packages', async () => {
    const committed = await readFile(new URL('../../../src/insights/ingest/spdx-ids.ts', import.meta.url), 'utf8');
    expect(committed).toBe(spdxModule(l));
  });

  it('the lists are the full ones, not a subset', () => {
    expect(l.ids.length).toBeGreaterThan(600);
    expect(l.deprecated).toContain('GPL-2.0-with-classpath-exception');
    expect(l.exceptions).toContain('Nokia-Qt-exception-1.1'); // a deprecated exception
  });

  it('every id and deprecated id is standard, spelled canonically from any case', () => {
    const bad = [...l.ids, ...l.deprecated].filter(
      (id) =>
        normalizeLicense(id) !== id ||
        normalizeLicense(id.toLowerCase()) !== id ||
        normalizeLicense(`${id.toUpperCase()}+`) !== `${id}+`,
    );
    expect(bad).toEqual([]);
  });

  it('every exception is accepted after WITH, and only there', () => {
    const bad = l.exceptions.filter(
      (e) => normalizeLicense(`apache-2.0 with ${e.toLowerCase()}`) !== `Apache-2.0 WITH ${e}`,
    );
    expect(bad).toEqual([]);
    expect(normalizeLicense('Classpath-exception-2.0')).toBe('non-standard');
    expect(normalizeLicense('MIT WITH MIT')).toBe('non-standard');
  });

  it('real ids the old hand-written list lacked are recognised; invented ones are not', () => {
    expect(normalizeLicense('BlueOak-1.0.0 OR Unicode-DFS-2016')).toBe('BlueOak-1.0.0 OR Unicode-DFS-2016');
    expect(normalizeLicense('bsd-3-clause-lbnl')).toBe('BSD-3-Clause-LBNL');
    expect(normalizeLicense('LGPL-2.1-or-later AND (cc-by-sa-2.5 OR OFL-1.1-RFN)')).toBe(
      'LGPL-2.1-or-later AND (CC-BY-SA-2.5 OR OFL-1.1-RFN)',
    );
    expect(normalizeLicense('MIT-2.0')).toBe('non-standard');
    expect(normalizeLicense('GPL-2.0-with-classpath-exception')).toBe('GPL-2.0-with-classpath-exception');
  });
});
