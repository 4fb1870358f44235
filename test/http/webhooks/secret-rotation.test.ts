/**
 * Signing-secret rotation: during the overlap every delivery carries both signatures and each
 * verifies with the official Standard Webhooks verifier (npm `standardwebhooks`); once the overlap
 * is over (moved into the past in the database: no waiting on the clock), or dropped, or with
 * overlap 0, only the new secret verifies. The api-user header (UltraCart's HMAC) keeps one signature.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiUserSigningKey } from '../../../src/webhooks/merchant-keys.ts';
import { apiUserSignature } from '../../../src/webhooks/signing.ts';
import { testDb } from '../../support/env.ts';
import { api, BASE, merchant } from './helpers.ts';
import { createHook, emit, pending, quiesce, startHarness, waitFor, type Harness } from './harness.ts';
import { startReceiver, type Received } from './receiver.ts';

type Json = any;
const BOOK = [{ event_category: 'book', subscribed: true }];
let h: Harness;

beforeAll(async () => {
  h = await startHarness('MERCH_ROTATION');
});

afterAll(async () => {
  await quiesce();
  await h.close();
});

function headersOf(r: Received): Record<string, string> {
  const names = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
  return Object.fromEntries(names.map((n) => [n, String(r.headers[n])]));
}

/** Whether the official verifier accepts the request with `secret`. */
function verifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, headersOf(r));
    return true;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return false;
    throw err;
  }
}

describe('signing secret rotation', () => {
  it('sends both signatures during the overlap, then only the new one', async () => {
    const rec = await startReceiver(() => 200);
    try {
      const hook = await createHook(h, {
        webhook_url: `${rec.url}/rot`,
        authentication_type: 'api user',
        event_categories: [{ event_category: 'pipeline', subscribed: true }],
      });
      const path = `${BASE}/${hook.oid}/signing_secret`;
      let n = 0;
      const deliverOne = async (): Promise<Received> => {
        const before = rec.received.length;
        n++;
        await emit(h.env, [{ name: 'task_finished', id: `rot-${n}`, payload: { task_id: `rot-${n}` } }]);
        const done = async () => rec.received.length === before + 1 && (await pending(hook.oid)) === 0;
        await waitFor(`delivery ${n}`, done);
        return rec.received[before]!;
      };
      const apiUserKey = await apiUserSigningKey(h.m.key);

      const r0 = await deliverOne();
      expect(String(r0.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifies(hook.secret, r0)).toBe(true);

      const t0 = Date.now();
      const rot = await api(h.env).post(`${path}/rotate`, { overlap_seconds: 3600 }, h.m.headers);
      expect(rot.status).toBe(200);
      const s1 = rot.headers.get('Webhook-Signing-Secret')!;
      expect(s1).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(s1).not.toBe(hook.secret);
      expect(rot.headers.get('Cache-Control')).toBe('no-store');
      const body = (await rot.json()) as Json;
      const expected = { previous_secret_active: true, overlap_seconds: 3600 };
      expect(body).toMatchObject({ success: true, signing_secret: expected });
      const until = Date.parse(body.signing_secret.previous_secret_expires_dts);
      expect(until).toBeGreaterThanOrEqual(t0 + 3600_000 - 5_000);
      expect(until).toBeLessThanOrEqual(Date.now() + 3600_000 + 5_000);
      expect(JSON.stringify(body)).not.toContain(s1);

      // Overlap: two v1 signatures, each secret verifies with the official verifier.
      const r1 = await deliverOne();
      const sigs = String(r1.headers['webhook-signature']).split(' ');
      expect(sigs).toHaveLength(2);
      expect(sigs.every((s) => s.startsWith('v1,'))).toBe(true);
      expect(verifies(s1, r1)).toBe(true);
      expect(verifies(hook.secret, r1)).toBe(true);
      expect(verifies(`whsec_${btoa('not the secret at all!!!')}`, r1)).toBe(false);
      // UltraCart's HMAC header (api user) carries one signature, with the api user's current key.
      const ts = Number(r1.headers['webhook-timestamp']);
      expect(r1.headers['x-ultracart-signature']).toBe(await apiUserSignature(apiUserKey, ts, r1.body));
      const during = (await (await api(h.env).get(path, h.m.headers)).json()) as Json;
      expect(during).toMatchObject({ signing_secret: { previous_secret_active: true } });

      // The overlap ends (moved into the past rather than waited for): only the new secret verifies.
      const past = `UPDATE webhooks.webhooks SET previous_secret_until = now() - interval '1 second'
        WHERE webhook_oid = $1`;
      await testDb().query(past, [hook.oid]);
      const state = (await (await api(h.env).get(path, h.m.headers)).json()) as Json;
      expect(state.signing_secret).toEqual({ previous_secret_active: false });
      const r2 = await deliverOne();
      expect(String(r2.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifies(s1, r2)).toBe(true);
      expect(verifies(hook.secret, r2)).toBe(false);

      // A second rotation, then the previous one dropped early: only the newest verifies.
      const rotate = async (overlap: number) =>
        (await api(h.env).post(`${path}/rotate`, { overlap_seconds: overlap }, h.m.headers)).headers.get(
          'Webhook-Signing-Secret',
        )!;
      const s2 = await rotate(600);
      const r3 = await deliverOne();
      expect([verifies(s2, r3), verifies(s1, r3), verifies(hook.secret, r3)]).toEqual([true, true, false]);
      const dropped = await api(h.env).delete(`${path}/previous`, undefined, h.m.headers);
      expect(dropped.status).toBe(200);
      expect(((await dropped.json()) as Json).signing_secret).toEqual({ previous_secret_active: false });
      const r4 = await deliverOne();
      expect([verifies(s2, r4), verifies(s1, r4)]).toEqual([true, false]);

      // Overlap 0: the old secret stops at once.
      const s3 = await rotate(0);
      const r5 = await deliverOne();
      expect([verifies(s3, r5), verifies(s2, r5)]).toEqual([true, false]);
    } finally {
      await rec.close();
      await quiesce();
    }
  });

  it('defaults the overlap to 24 h when no body is sent', async () => {
    const hook = await createHook(h, { webhook_url: 'https://hooks.example.com/rot-default', event_categories: BOOK });
    const res = await api(h.env).post(`${BASE}/${hook.oid}/signing_secret/rotate`, undefined, h.m.headers);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).signing_secret.overlap_seconds).toBe(86_400);
  });

  it.each([
    ['negative overlap', { overlap_seconds: -1 }],
    ['overlap over 7 days', { overlap_seconds: 7 * 86_400 + 1 }],
    ['overlap not a number', { overlap_seconds: 'soon' }],
    ['fractional overlap', { overlap_seconds: 1.5 }],
    ['unknown member', { overlap: 10 }],
  ])('%s is a 400 in the UltraCart envelope', async (_n, body) => {
    const hook = await createHook(h, { webhook_url: 'https://hooks.example.com/rot-bad', event_categories: BOOK });
    const res = await api(h.env).post(`${BASE}/${hook.oid}/signing_secret/rotate`, body, h.m.headers);
    expect(res.status).toBe(400);
    expect(res.headers.get('Webhook-Signing-Secret')).toBeNull();
    const err = (await res.json()) as Json;
    expect(err).toMatchObject({ success: false, error: { developer_message: expect.any(String) } });
  });

  it("needs the merchant key and the merchant's own webhook", async () => {
    const hook = await createHook(h, { webhook_url: 'https://hooks.example.com/rot-own', event_categories: BOOK });
    const other = await merchant('MERCH_ROTATION_OTHER');
    const stored = async () =>
      (
        await testDb().query<{ s: string }>(
          'SELECT signing_secret_enc AS s FROM webhooks.webhooks WHERE webhook_oid = $1',
          [hook.oid],
        )
      )[0]!.s;
    const before = await stored();
    expect((await api(h.env).post(`${BASE}/${hook.oid}/signing_secret/rotate`, {}, {})).status).toBe(401);
    expect((await api(h.env).post(`${BASE}/${hook.oid}/signing_secret/rotate`, {}, other.headers)).status).toBe(404);
    const drop = await api(h.env).delete(`${BASE}/${hook.oid}/signing_secret/previous`, undefined, other.headers);
    expect(drop.status).toBe(404);
    expect((await api(h.env).get(`${BASE}/${hook.oid}/signing_secret`, other.headers)).status).toBe(404);
    expect((await api(h.env).post(`${BASE}/999999/signing_secret/rotate`, {}, h.m.headers)).status).toBe(404);
    expect(await stored()).toBe(before);
  });
});
