import { SignJWT, base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerToken, issueToken, verifyToken } from '../../../src/platform/auth.ts';
import { HttpError } from '../../../src/platform/errors.ts';

const env = { JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789', JWT_ISSUER: 'tests' };

async function rejects(token: string, audience = 'market', e = env): Promise<HttpError> {
  try {
    await verifyToken(e, token, audience);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(401);
    return err as HttpError;
  }
  throw new Error('token was accepted');
}

describe('jwt', () => {
  it('issues and verifies HS256 tokens with issuer, audience and expiry', async () => {
    const token = await issueToken(env, { role: 2 }, { expiresIn: '1h', audience: 'market', subject: 'u1' });
    const claims = await verifyToken(env, token, 'market');
    expect(claims).toMatchObject({ role: 2, sub: 'u1', iss: 'tests', aud: 'market' });
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('rejects the wrong audience, issuer and secret', async () => {
    const token = await issueToken(env, {}, { expiresIn: '1h', audience: 'market' });
    await rejects(token, 'pipeline');
    await rejects(token, 'market', { ...env, JWT_ISSUER: 'other' });
    await rejects(token, 'market', { ...env, JWT_SECRET: 'another-secret-that-is-long-enough-987654321' });
  });

  it('rejects expired tokens with a clear reason', async () => {
    const token = await issueToken(env, {}, { expiresIn: -10, audience: 'market' });
    expect((await rejects(token)).message).toBe('token expired');
  });

  it('rejects alg none and tampered payloads', async () => {
    const good = await issueToken(env, { role: 0 }, { expiresIn: '1h', audience: 'market' });
    const [h, p, s] = good.split('.');
    const payload = JSON.parse(new TextDecoder().decode(base64url.decode(p!)));
    const forged = base64url.encode(JSON.stringify({ ...payload, role: 2 }));
    await rejects(`${h}.${forged}.${s}`);
    const none = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    await rejects(`${none}.${p}.`);
    const hs512 = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS512' })
      .sign(new TextEncoder().encode(env.JWT_SECRET));
    await rejects(hs512);
  });

  it('requires exp and a long enough secret', async () => {
    const noExp = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setIssuer('tests')
      .setAudience('market')
      .sign(new TextEncoder().encode(env.JWT_SECRET));
    await rejects(noExp);
    await expect(issueToken({ JWT_SECRET: 'short' }, {}, { expiresIn: '1h', audience: 'x' })).rejects.toThrow(
      /at least 32 bytes/,
    );
  });

  it.each([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer   tok ', 'tok'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    [undefined, undefined],
  ])('bearerToken(%s)', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});
