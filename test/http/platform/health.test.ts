import { describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import insights from '../../../functions/insights.ts';
import marketplace from '../../../functions/marketplace.ts';
import pipeline from '../../../functions/pipeline.ts';
import { workerClient } from '../../support/env.ts';

describe.each([
  ['insights', insights],
  ['marketplace', marketplace],
  ['pipeline', pipeline],
  ['delivery', delivery],
] as const)('%s function', (name, worker) => {
  it('answers /healthz with the database clock through its worker fetch', async () => {
    const res = await workerClient(worker).get('/healthz');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { function: string; ok: boolean; databaseTime: string };
    expect(body.function).toBe(name);
    expect(Math.abs(Date.parse(body.databaseTime) - Date.now())).toBeLessThan(60_000);
  });
});

describe('error dialects on unknown routes', () => {
  it.each([
    ['insights', insights, (b: any) => expect(typeof b.error).toBe('string')],
    [
      'marketplace',
      marketplace,
      (b: any) => {
        expect(typeof b.data.error).toBe('string');
        expect(b.method).toBe('GET /nope');
        expect(Date.parse(b.time)).not.toBeNaN();
      },
    ],
    ['pipeline', pipeline, (b: any) => expect(b.detail).toBe('Not Found')],
  ] as const)('%s answers 404 in its envelope', async (_n, worker, check) => {
    const res = await workerClient(worker).get('/nope');
    expect(res.status).toBe(404);
    check(await res.json());
  });
});
