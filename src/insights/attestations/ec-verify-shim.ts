/**
 * workerd's `crypto.verify(undefined, data, ecKey, sig)` throws where Node picks the hash from the
 * key's curve; `@sigstore/core` calls it that way for ECDSA keys (Fulcio leaves, Rekor, the npm
 * registry key). This wraps `node:crypto`'s `verify` once: for an EC key and no algorithm it names the
 * hash Node would pick (P-256 -> sha256, P-384 -> sha384, P-521 -> sha512); every other call is passed
 * through unchanged, so under Node the result is the same as without the wrapper. A key passed as
 * `{key: KeyObject, hashAlgorithm}` (how `@tufjs/models` checks TUF signatures, tuf-refresh.ts), which
 * workerd does not take, is passed as its KeyObject: the algorithm argument already names the hash.
 */
import nodeCrypto, { type KeyObject } from 'node:crypto';

const CURVE_HASH: Record<string, string> = {
  prime256v1: 'sha256',
  'P-256': 'sha256',
  secp384r1: 'sha384',
  'P-384': 'sha384',
  secp521r1: 'sha512',
  'P-521': 'sha512',
};

const WRAPPED = Symbol.for('edge-services.ec-verify-shim');

type Verify = typeof nodeCrypto.verify;

/** A key given as `{key: KeyObject}` with no option that changes the check (`padding`, `dsaEncoding`...). */
function isWrappedKey(key: unknown): key is { key: KeyObject } {
  if (typeof key !== 'object' || key === null || key instanceof nodeCrypto.KeyObject) return false;
  const k = key as Record<string, unknown>;
  return k.key instanceof nodeCrypto.KeyObject && Object.keys(k).every((n) => n === 'key' || n === 'hashAlgorithm');
}

export function installEcVerifyShim(): void {
  const target = nodeCrypto as unknown as { verify: Verify & { [WRAPPED]?: true } };
  if (target.verify[WRAPPED]) return;
  const original = target.verify.bind(nodeCrypto) as (...a: unknown[]) => boolean;
  const wrapped = ((algorithm: unknown, data: unknown, given: unknown, signature: unknown, ...rest: unknown[]) => {
    // `{key: KeyObject, hashAlgorithm}` (@tufjs/models' TUF key checks): workerd takes only the KeyObject
    const key = isWrappedKey(given) ? given.key : given;
    if (algorithm == null && key instanceof nodeCrypto.KeyObject && key.asymmetricKeyType === 'ec') {
      const curve = key.asymmetricKeyDetails?.namedCurve ?? '';
      const hash = CURVE_HASH[curve];
      if (hash) return original(hash, data, key, signature, ...rest);
    }
    return original(algorithm, data, key, signature, ...rest);
  }) as unknown as Verify & { [WRAPPED]?: true };
  wrapped[WRAPPED] = true;
  target.verify = wrapped;
}
