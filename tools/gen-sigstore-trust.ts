/**
 * `npm run gen:sigstore-trust`: writes the Sigstore public-good trusted root and the npm registry's
 * signing keys (src/insights/attestations/sigstore-trusted-root.json, npm-registry-keys.json) from the
 * TUF targets `@sigstore/tuf` embeds (seeds.json: the targets of tuf-repo-cdn.sigstore.dev as that
 * package's release verified them). The files are data the verifier reads (trust.ts); every key keeps
 * its validity window, so bundles signed under a retired key keep verifying for their signing time.
 * It also writes the TUF root metadata those targets were verified under (sigstore-tuf-root.json): the
 * root the delivery cron's refresh (attestations/tuf-refresh.ts) chains from until it has a newer one.
 * Re-run after `npm update @sigstore/tuf` to take Sigstore's newer keys.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPO = 'https://tuf-repo-cdn.sigstore.dev';
const OUT = `${ROOT}src/insights/attestations/`;

export async function sigstoreTargets(): Promise<{ trustedRoot: unknown; npmKeys: unknown; tufRoot: unknown }> {
  const seeds = JSON.parse(await readFile(`${ROOT}node_modules/@sigstore/tuf/seeds.json`, 'utf8'));
  const targets = seeds[REPO]?.targets ?? {};
  const decode = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));
  return {
    trustedRoot: decode(targets['trusted_root.json']),
    npmKeys: decode(targets['registry.npmjs.org%2Fkeys.json']),
    tufRoot: decode(seeds[REPO]['root.json']),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { trustedRoot, npmKeys, tufRoot } = await sigstoreTargets();
  await writeFile(`${OUT}sigstore-trusted-root.json`, `${JSON.stringify(trustedRoot, null, 2)}\n`);
  await writeFile(`${OUT}npm-registry-keys.json`, `${JSON.stringify(npmKeys, null, 2)}\n`);
  await writeFile(`${OUT}sigstore-tuf-root.json`, `${JSON.stringify(tufRoot, null, 2)}\n`);
  console.log(
    `gen:sigstore-trust: wrote ${OUT}sigstore-trusted-root.json, npm-registry-keys.json, sigstore-tuf-root.json`,
  );
}
