import { describe, expect, it } from 'vitest';
import pipeline from '../../../functions/pipeline.ts';
import { testEnv, workerClient } from '../../support/env.ts';
import { TOKEN } from './helpers.ts';

const api = workerClient(pipeline);

describe('pipeline admin token', () => {
  it.each([
    ['no header', {}, 401, 'Not authenticated'],
    ['wrong scheme', { authorization: `Basic ${TOKEN}` }, 401, 'Not authenticated'],
    ['wrong token', { authorization: 'Bearer nope' }, 401, 'Invalid admin token'],
    [
      'token with a different last char',
      { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      401,
      'Invalid admin token',
    ],
  ])('%s -> %i', async (_n, headers, status, detail) => {
    for (const path of [
      '/api/v1/sources',
      '/api/v1/tasks',
      '/api/v1/providers',
      '/api/v1/destinations',
      '/api/v1/reports',
      '/api/v1/monitors',
    ]) {
      const res = await api.get(path, headers);
      expect(res.status).toBe(status);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ detail });
    }
  });

  it('accepts the right token', async () => {
    const res = await api.get('/api/v1/providers', { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
  });

  it('refuses everything when the deployment has no token', async () => {
    const bare = workerClient(pipeline, testEnv({ PIPELINE_ADMIN_TOKEN: '' }));
    for (const headers of [{}, { authorization: 'Bearer ' }, { authorization: 'Bearer anything' }] as Record<
      string,
      string
    >[]) {
      const res = await bare.get('/api/v1/sources', headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: 'Admin token is not configured on this deployment' });
    }
  });

  it.each([
    ['/api/v1/feed.xml', 200, 'application/rss+xml; charset=utf-8'],
    ['/reports', 200, 'text/html; charset=UTF-8'],
    ['/', 200, 'application/json'],
  ])('%s is public', async (path, status, type) => {
    const res = await api.get(path);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe(type);
  });

  it('links the pages and the feed from the API root', async () => {
    const body = await (await api.get('/')).json();
    expect(body).toEqual({
      name: 'Insight Pipeline API',
      version: 'v1',
      api: '/api/v1',
      links: { reports_page: '/reports', feed: '/api/v1/feed.xml', health: '/healthz' },
    });
  });
});
