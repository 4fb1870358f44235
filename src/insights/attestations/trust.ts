/**
 * The trust material attestations are verified against, held as data in the repository (written by
 * `npm run gen:sigstore-trust` from the TUF targets of Sigstore's public-good instance): the trusted
 * root (Fulcio certificate authorities, Rekor and CT log keys, the timestamp authority, each with its
 * validity window) and the npm registry's keys (`npm:attestations` usage, with `validFor`). Nothing is
 * fetched at verification time. A key is trusted for a signature only inside its window, so bundles
 * signed under a retired key keep verifying and a signature after a key's end does not.
 */
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { crypto as sigCrypto } from '@sigstore/core';
import { toTrustMaterial, type KeyFinderFunc, type TrustMaterial } from '@sigstore/verify';
import trustedRootJson from './sigstore-trusted-root.json' with { type: 'json' };
import npmKeysJson from './npm-registry-keys.json' with { type: 'json' };
import { installEcVerifyShim } from './ec-verify-shim.ts';

export interface RegistryKey {
  keyId: string;
  keyUsage: string;
  publicKey: { rawBytes: string; keyDetails?: string; validFor?: { start?: string; end?: string } };
}

export interface TrustData {
  trustedRoot: unknown;
  npmKeys: { keys: RegistryKey[] };
}

export const BUILTIN_TRUST: TrustData = { trustedRoot: trustedRootJson, npmKeys: npmKeysJson };

/** A key finder over the npm registry's attestation keys; a key is valid for a date inside its window. */
function npmKeyFinder(keys: RegistryKey[]): KeyFinderFunc {
  return (hint) => {
    const key = keys.find((k) => k.keyId === hint && k.keyUsage === 'npm:attestations');
    if (!key) throw new Error(`npm registry key not found: ${hint}`);
    const start = key.publicKey.validFor?.start ? Date.parse(key.publicKey.validFor.start) : 0;
    const end = key.publicKey.validFor?.end ? Date.parse(key.publicKey.validFor.end) : Number.POSITIVE_INFINITY;
    return {
      publicKey: sigCrypto.createPublicKey(key.publicKey.rawBytes),
      validFor: (date: Date) => date.getTime() >= start && date.getTime() <= end,
    };
  };
}

const cache = new WeakMap<TrustData, TrustMaterial>();

/** The verifier's trust material for `data` (built once per isolate). */
export function trustMaterial(data: TrustData = BUILTIN_TRUST): TrustMaterial {
  installEcVerifyShim();
  let m = cache.get(data);
  if (!m) {
    m = toTrustMaterial(TrustedRoot.fromJSON(data.trustedRoot), npmKeyFinder(data.npmKeys.keys));
    cache.set(data, m);
  }
  return m;
}
