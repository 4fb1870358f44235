/**
 * Fuzz over every route of the four functions, generated from the Hono apps themselves (`app.routes`:
 * every method and path pattern a router mounts, so a new route is covered without editing this file).
 * Each route gets hostile path parameters (NUL, control bytes, bad percent-encoding, 5,000 characters,
 * unicode), hostile query strings, and for methods with a body: malformed JSON, wrong types, NUL inside
 * strings, invalid UTF-8, a 3 MB body. With real credentials where a route needs them (pipeline admin
 * token, a merchant API key, a marketplace token), so validation behind authentication is reached too.
 * Asserted for every request: no 5xx, an error answer in the service's own envelope, no request text in
 * a response header; and afterwards every function still answers its health check. Deterministic
 * (seeded); prints the number of requests and routes.
 */
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery, { app as deliveryApp } from '../../../functions/delivery.ts';
import insights, { app as insightsApp } from '../../../functions/insights.ts';
import marketplace, { app as marketplaceApp } from '../../../functions/marketplace.ts';
import pipeline, { app as pipelineApp } from '../../../functions/pipeline.ts';
import { tokenFor } from '../../../src/marketplace/auth.ts';
import type { Dialect } from '../../../src/platform/errors.ts';
import { createMerchantKey } from '../../../src/webhooks/merchant-keys.ts';
import { callWorker, testDb, testEnv, type Worker } from '../../support/env.ts';
import { seededRandom } from '../../../tools/seeded-random.ts';
import { startRegistry, type RegistryServer } from '../../../tools/registries/registry-server.ts';
import { encryptionKey } from '../../../src/platform/config/shared.ts';

interface Fn {
  name: string;
  worker: Worker;
  app: Hono<any>;
  dialectFor: (path: string) => Dialect;
}
const FUNCTIONS: Fn[] = [
  { name: 'insights', worker: insights, app: insightsApp, dialectFor: () => 'insights' },
  { name: 'marketplace', worker: marketplace, app: marketplaceApp, dialectFor: () => 'marketplace' },
  {
    name: 'pipeline',
    worker: pipeline,
    app: pipelineApp,
    dialectFor: (p) => (p.startsWith('/rest/v2/webhook') ? 'ultracart' : 'pipeline'),
  },
  { name: 'delivery', worker: delivery, app: deliveryApp, dialectFor: () => 'pipeline' },
];

const PARAMS = [
  '%00',
  'a%00b',
  '%07x',
  '%0A',
  '%E0%A4%A',
  '%ZZ',
  'x'.repeat(5000),
  '%F0%9F%92%A9',
  '-1',
  '0',
  '99999999999999999999',
  "1' OR '1'='1",
  '..%2F..%2Fetc',
];
const QUERIES = [
  '?limit=%00',
  '?skip=-5&limit=abc',
  '?_placeholders=maybe',
  '?q=%E0%A4%A',
  '?page=1e309',
  `?x=${'y'.repeat(9000)}`,
  '?a=%07',
  '?versionKey.name=%00',
];
const BODIES: (string | Uint8Array)[] = [
  '{',
  '[]',
  '"x"',
  'null',
  '{"a":{"b":[1,2,{"c":null}]}}',
  '{"name":"\\u0000"}',
  '{"email":123,"password":[],"limit":"x"}',
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  `{"x":"${'z'.repeat(3 * 1024 * 1024)}"}`,
  '{"requests":[{"versionKey":{"system":"NPM","name":"a\\u0000"}}],"pageToken":null}',
];

function routesOf(app: Hono<any>): { method: string; path: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const r of app.routes) {
    if (r.method === 'ALL' || (r.path.includes('*') && r.method === 'ALL')) continue;
    const k = `${r.method} ${r.path}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ method: r.method, path: r.path });
  }
  return out;
}

/** The path with `value` in every parameter; a parameter with alternatives (`:api{v3|v3alpha}`) keeps its first. */
function fill(path: string, value: string, tail = value): string {
  return path
    .replace(/:[A-Za-z_]+(\{([^}]*)\})?/g, (_m, _c, alts: string | undefined) =>
      alts && /^[\w|]+$/.test(alts) ? alts.split('|')[0]! : value,
    )
    .replace(/\*/g, tail);
}

/** Shapes under a wildcard (e.g. insights' `/v3/systems/*`): the value alone and inside a package path. */
const TAILS = (v: string) => [
  v,
  `npm/packages/${v}`,
  `npm/packages/x/versions/${v}`,
  `npm/packages/x/versions/${v}:dependencies`,
  `pypi/packages/${v}:requirements`,
];

function envelopeOk(dialect: Dialect, status: number, body: any): boolean {
  if (status < 400) return true;
  switch (dialect) {
    case 'insights':
      return typeof body?.error === 'string';
    case 'marketplace':
      return typeof body?.data?.error === 'string' && typeof body?.time === 'string';
    case 'pipeline':
      return body?.detail !== undefined || typeof body?.error === 'string'; // delivery's 401 is {error}
    case 'ultracart':
      return body?.success === false && typeof body?.error?.developer_message === 'string';
  }
}

let auth: Record<string, Record<string, string>> = {};
let env = testEnv();
let upstream: RegistryServer;
const UPSTREAMS = [
  'NPM_REGISTRY_URL',
  'PYPI_URL',
  'CRATES_INDEX_URL',
  'CRATES_API_URL',
  'MAVEN_REPO_URL',
  'NUGET_INDEX_URL',
  'RUBYGEMS_URL',
  'GO_PROXY_URL',
  'OSV_API_URL',
  'OSV_BULK_URL',
  'GITHUB_API_URL',
  'GITLAB_API_URL',
  'BITBUCKET_API_URL',
  'SCORECARD_API_URL',
  'OSS_FUZZ_PROJECTS_URL',
  'OSS_FUZZ_COVERAGE_URL',
];
let requests = 0;
const statuses = new Map<number, number>();
const failures: string[] = [];

beforeAll(async () => {
  // every upstream on loopback, knowing no package: read-through answers 404, never a network failure
  upstream = await startRegistry(() => undefined);
  env = testEnv(Object.fromEntries(UPSTREAMS.map((k) => [k, upstream.url])));
  const { key } = await createMerchantKey(testDb(), encryptionKey(env), 'FUZZ_MERCHANT');
  auth = {
    insights: {},
    marketplace: { authorization: `Bearer ${await tokenFor(env, '00000000-0000-0000-0000-000000000000', 0)}` },
    pipeline: { authorization: `Bearer ${env.PIPELINE_ADMIN_TOKEN}`, 'X-UltraCart-Simple-Key': key },
    delivery: {},
  };
});

async function send(fn: Fn, method: string, url: string, body?: string | Uint8Array): Promise<void> {
  requests++;
  const headers: Record<string, string> = { ...auth[fn.name] };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await callWorker(
      fn.worker,
      new Request(`http://localhost${url}`, { method, headers, body: body as BodyInit | undefined }),
      env,
    );
  } catch (err) {
    failures.push(`${fn.name} ${method} ${url.slice(0, 80)}: threw ${(err as Error).message}`);
    return;
  }
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const text = await res.text();
  const where = `${fn.name} ${method} ${url.slice(0, 80)}${body !== undefined ? ` body#${BODIES.indexOf(body)}` : ''}`;
  if (res.status >= 500) failures.push(`${where}: ${res.status} ${text.slice(0, 120)}`);
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  if (
    res.status >= 400 &&
    isJson &&
    !envelopeOk(fn.dialectFor(new URL(`http://localhost${url}`).pathname), res.status, parsed)
  ) {
    failures.push(`${where}: ${res.status} not in the ${fn.dialectFor(url)} envelope: ${text.slice(0, 120)}`);
  }
  for (const [k, v] of res.headers)
    if (v.includes('\u0000') || v.length > 1000) failures.push(`${where}: header ${k} carries request text`);
}

describe('fuzz: every route of every function', () => {
  it('never answers 5xx, always in its envelope, and every function answers afterwards', async () => {
    const rnd = seededRandom(20261125);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    let routes = 0;
    for (const fn of FUNCTIONS) {
      for (const r of routesOf(fn.app)) {
        routes++;
        const hasParams = /[:*]/.test(r.path);
        const paths = !hasParams
          ? [r.path]
          : PARAMS.flatMap((p) => (r.path.includes('*') ? TAILS(p).map((t) => fill(r.path, p, t)) : [fill(r.path, p)]));
        for (const p of paths) await send(fn, r.method, p + (rnd() < 0.3 ? pick(QUERIES) : ''));
        const plain = hasParams ? fill(r.path, '1', 'npm/packages/x/versions/1.0.0') : r.path;
        for (const q of QUERIES) await send(fn, r.method, plain + q);
        if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
          for (const b of BODIES) await send(fn, r.method, plain, b);
      }
    }
    for (const fn of FUNCTIONS) {
      const res = await callWorker(fn.worker, new Request('http://localhost/healthz'), env);
      expect(`${fn.name} ${res.status}`).toBe(`${fn.name} 200`);
    }
    const tally = [...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    console.log(
      `fuzz: ${requests} requests over ${routes} routes of ${FUNCTIONS.length} functions, ${failures.length} failures (${tally})`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});

afterAll(() => upstream?.close());
