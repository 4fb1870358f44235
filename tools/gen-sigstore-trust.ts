/**
 * `npm run gen:sigstore-trust`: writes the Sigstore public-good trusted root and the npm registry's
 * signing keys (src/insights/attestations/sigstore-trusted-root.json, npm-registry-keys.json) from the
 * TUF targets `@sigstore/tuf` embeds (seeds.json: the targets of tuf-repo-cdn.sigstore.dev as that
 * package's release verified them). The files are data the verifier reads (trust.ts); every key keeps
 * its validity window, so bundles signed under a retired key keep verifying for their signing time.
 * Re-run after `npm update @sigstore/tuf` to take Sigstore's newer keys.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPO = 'https://tuf-repo-cdn.sigstore.dev';
const OUT = `${ROOT}src/insights/attestations/`;

export async function sigstoreTargets(): Promise<{ trustedRoot: unknown; npmKeys: unknown }> {
  const seeds = JSON.parse(await readFile(`${ROOT}node_modules/@sigstore/tuf/seeds.json`, 'utf8'));
  const targets = seeds[REPO]?.targets ?? {};
  const target = (name: string) => JSON.parse(Buffer.from(targets[name], 'base64').toString('utf8'));
  return { trustedRoot: target('trusted_root.json'), npmKeys: target('registry.npmjs.org%2Fkeys.json') };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { trustedRoot, npmKeys } = await sigstoreTargets();
  await writeFile(`${OUT}sigstore-trusted-root.json`, `${JSON.stringify(trustedRoot, null, 2)}\n`);
  await writeFile(`${OUT}npm-registry-keys.json`, `${JSON.stringify(npmKeys, null, 2)}\n`);
  console.log(`gen:sigstore-trust: wrote ${OUT}sigstore-trusted-root.json and npm-registry-keys.json`);
}
