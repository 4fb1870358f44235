import { describe, expect, it } from 'vitest';
import {
  decryptSecret,
  encryptSecret,
  hashPassword,
  hmacSha256,
  maskSecret,
  randomToken,
  sha256Hex,
  timingSafeEqual,
  toHex,
  verifyPassword,
} from '../../../src/platform/crypto.ts';

const KEY = 'bG9jYWwtZGV2ZWxvcG1lbnQta2V5LTMyLWJ5dGVzISE=';

describe('crypto helpers', () => {
  it('hashes with SHA-256 and HMAC-SHA256 (RFC 4231 test case 2)', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(toHex(await hmacSha256('Jefe', 'what do ya want for nothing?'))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('encrypts secrets at rest with a fresh IV and decrypts them back', async () => {
    const a = await encryptSecret(KEY, 'sk-live-123');
    const b = await encryptSecret(KEY, 'sk-live-123');
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk-live');
    expect(await decryptSecret(KEY, a)).toBe('sk-live-123');
  });

  it('refuses tampered ciphertext and wrong keys', async () => {
    const a = await encryptSecret(KEY, 'secret');
    const [v, iv, ct] = a.split(':');
    const flipped = `${v}:${iv}:${ct!.slice(0, -4)}${ct!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    await expect(decryptSecret(KEY, flipped)).rejects.toThrow();
    await expect(decryptSecret('b3RoZXIta2V5LW90aGVyLWtleS1vdGhlci1rZXktMzI=', a)).rejects.toThrow();
    await expect(encryptSecret('c2hvcnQ=', 'x')).rejects.toThrow(/32 bytes/);
  });

  it('masks secrets to their last four characters', () => {
    expect(maskSecret('sk-abcdef1234')).toBe('****1234');
    expect(maskSecret('abc')).toBe('****');
    expect(maskSecret('')).toBeNull();
  });

  it('hashes passwords with PBKDF2 and verifies them', async () => {
    const stored = await hashPassword('correct horse', 1000);
    expect(stored).toMatch(/^pbkdf2\$sha256\$1000\$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
    expect(await verifyPassword('correct horse', 'garbage')).toBe(false);
    expect(await verifyPassword('correct horse', stored.replace('$1000$', '$99999999$'))).toBe(false);
  });

  it('compares in constant time and makes URL-safe tokens', () => {
    expect(timingSafeEqual('abc', 'abc')).toBe(true);
    expect(timingSafeEqual('abc', 'abd')).toBe(false);
    expect(timingSafeEqual('abc', 'abcd')).toBe(false);
    const t = randomToken(32);
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken(32)).not.toBe(t);
  });
});
