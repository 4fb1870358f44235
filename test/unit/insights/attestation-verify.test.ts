/**
 * Sigstore verification of the three real bundles and of altered copies (test/fixtures/attestations/cases.ts),
 * offline against the trusted root and npm keys kept in src/insights/attestations/; the same cases run
 * under workerd in test/workers/attestations.test.ts. Also: the repository keys compared, and what the
 * moved-repository question is asked with.
 */
import { describe, expect, it } from 'vitest';
import { asked, CASES } from '../../fixtures/attestations/cases.ts';
import { repositoryKey } from '../../../src/insights/attestations/identity.ts';
import { BUILTIN_TRUST } from '../../../src/insights/attestations/trust.ts';
import { sigstoreTargets } from '../../../tools/gen-sigstore-trust.ts';
import { SIGSTORE_TUF_ROOT } from '../../../src/insights/attestations/tuf-refresh.ts';

describe('verification of real and altered bundles', () => {
  it.each(CASES.map((c) => [c.what, c] as const))('%s', async (_, c) => {
    const v = await c.run();
    expect(v.verified).toBe(c.verified);
    expect(v.reason).toMatch(c.reason);
  });

  it('a moved repository is asked about with the declared URL and the signed repository and id', async () => {
    asked.length = 0;
    await CASES[1]!.run();
    expect(asked.map((a) => [a.declared, a.signed.repository, a.signed.repositoryId, a.signed.issuer])).toEqual([
      [
        'git+https://github.com/github/tuf-js.git',
        'https://github.com/theupdateframework/tuf-js',
        '529431007',
        'https://token.actions.githubusercontent.com',
      ],
    ]);
  });
});

describe('repositoryKey', () => {
  it.each([
    ['git+https://github.com/Sigstore/sigstore-js.git', 'github.com/sigstore/sigstore-js'],
    ['https://github.com/sigstore/sigstore-js/', 'github.com/sigstore/sigstore-js'],
    ['git://github.com/o/r.git', 'github.com/o/r'],
    ['git+ssh://git@github.com/o/r.git', 'github.com/o/r'],
    ['git@github.com:o/r.git', 'github.com/o/r'],
    ['github:o/r', 'github.com/o/r'],
    ['o/r', 'github.com/o/r'],
    ['https://gitlab.com/group/sub/proj', 'gitlab.com/group/sub/proj'],
    ['', ''],
    ['not a url', ''],
  ])('%s -> %s', (url, key) => {
    expect(repositoryKey(url)).toBe(key);
  });
});

describe('trust data', () => {
  it('is what `npm run gen:sigstore-trust` writes from the installed @sigstore/tuf', async () => {
    const { trustedRoot, npmKeys, tufRoot } = await sigstoreTargets();
    expect(BUILTIN_TRUST).toEqual({ trustedRoot, npmKeys });
    expect(SIGSTORE_TUF_ROOT).toEqual(tufRoot);
  });
});
