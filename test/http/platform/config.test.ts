import { describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import marketplace from '../../../functions/marketplace.ts';
import pipeline from '../../../functions/pipeline.ts';
import { callWorker, testEnv } from '../../support/env.ts';

const get = (path: string) => new Request(`http://localhost${path}`);

describe('a misconfigured function', () => {
  it('answers 503 in the marketplace envelope naming the variable, never the secret', async () => {
    const secret = 'short-secret-do-not-echo';
    const res = await callWorker(marketplace, get('/api/books/getBooksNoToken/1/0'), testEnv({ JWT_SECRET: secret }));
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text).not.toContain(secret);
    expect(JSON.parse(text).data.error).toBe('service misconfigured: JWT_SECRET: must be at least 32 bytes');
  });

  it('answers 503 in the deps.dev dialect for insights', async () => {
    const res = await callWorker(
      insights,
      get('/v3/systems/npm/packages/lodash'),
      testEnv({ INSIGHTS_FETCH_LIMIT: 'many' }),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: 'service misconfigured: INSIGHTS_FETCH_LIMIT: must be a whole number ≥ 1',
    });
  });

  it('answers 503 in the UltraCart dialect on the webhook resource of pipeline', async () => {
    const res = await callWorker(pipeline, get('/rest/v2/webhook/webhooks'), testEnv({ ENCRYPTION_KEY: 'c2hvcnQ=' }));
    expect(res.status).toBe(503);
    const body = (await res.json()) as { success: boolean; error: { developer_message: string } };
    expect(body.success).toBe(false);
    expect(body.error.developer_message).toBe('service misconfigured: ENCRYPTION_KEY: must be base64 of 32 bytes');
  });

  it('refuses the local-development http switch when the database is not on loopback (production)', async () => {
    const env = testEnv({
      OUTBOUND_LOOPBACK_HTTP: 'on',
      DATABASE_URL: 'postgres://u:p@ep-x.us-east-2.aws.neon.tech/db',
    });
    const res = await callWorker(pipeline, get('/rest/v2/webhook/webhooks'), env);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { success: boolean; error: { developer_message: string } };
    expect(body.error.developer_message).toBe(
      'service misconfigured: OUTBOUND_LOOPBACK_HTTP: may be on only in local development (DATABASE_URL on a loopback host); production refuses it',
    );
  });

  it('serves normally when configured', async () => {
    expect((await callWorker(marketplace, get('/api/books/getBooksNoToken/1/0'))).status).toBe(200);
  });
});
