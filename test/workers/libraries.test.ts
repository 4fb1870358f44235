/**
 * issue 23 inside workerd: the format modules whose library/hand-written choice docs/libraries.md records
 * run in the Workers runtime (the generated SPDX table with the expression parser, the SigV4 signer).
 */
import { describe, expect, it } from 'vitest';
import { normalizeLicense } from '../../src/insights/ingest/licenses.ts';
import { SPDX_DEPRECATED_IDS, SPDX_EXCEPTIONS, SPDX_IDS } from '../../src/insights/ingest/spdx-ids.ts';

describe('SPDX under workerd', () => {
  it('every id, deprecated id and exception is recognised and spelled canonically', () => {
    const ids = `${SPDX_IDS} ${SPDX_DEPRECATED_IDS}`.split(/\s+/);
    expect(ids.length).toBeGreaterThan(600);
    expect(ids.filter((id) => normalizeLicense(id.toLowerCase()) !== id)).toEqual([]);
    const exc = SPDX_EXCEPTIONS.split(/\s+/);
    expect(exc.filter((e) => normalizeLicense(`MIT WITH ${e.toUpperCase()}`) !== `MIT WITH ${e}`)).toEqual([]);
    expect(normalizeLicense('MIT AND')).toBe('non-standard');
  });
});
