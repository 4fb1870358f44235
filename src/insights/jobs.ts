/**
 * Queue callbacks of the insights service, mounted by functions/delivery.ts under /insights (behind
 * verifyQstash). `POST /insights/refresh {system, name}` re-ingests one package from its upstream
 * (idempotent: a store replaces the package wholly). A package gone upstream is left as stored.
 * 5xx on upstream failure makes QStash retry.
 *
 * `POST /insights/dependencies {system, name, version, round}` finishes a graph the endpoint answered
 * 503 for (graph-build.ts with the same fetch limit): complete -> cached; still incomplete because of
 * the limit -> what was fetched is stored and the next round is queued; an upstream failure -> 503
 * (QStash retries). `POST /insights/advisories {system, names}` stores the OSV records of packages
 * the graph read-through stored without them. `POST /insights/npm-pending {names, before}` reads the
 * tarballs and attestation documents npm ingestion left pending (npm-pending.ts), a batch per package.
 * `POST /insights/attestations {system, name}` verifies the package's unchecked attestation documents
 * (attestation-checks.ts), CHECKS_PER_MESSAGE per message, queueing the rest.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { verifiedJson } from '../platform/queue.ts';
import { HttpError } from '../platform/errors.ts';
import { SYSTEMS, type System } from '../versions/index.ts';
import { GRAPH_SYSTEMS, type ResolveSystem } from '../resolve/index.ts';
import { buildGraph } from './graph-build.ts';
import { queueAdvisories, queueGraphCompletion } from './graph-queue.ts';
import { readAdvisories } from './advisory-reads.ts';
import { isUpstreamFailure, warnUpstream } from './ingest/upstream-log.ts';
import { ingestPackage } from './read-through.ts';
import { completeNpmBatch, NPM_PENDING_TOP, queueNpmPending } from './npm-pending.ts';
import { checkAttestations } from './attestation-checks.ts';
import { queueAttestationChecks } from './attestation-queue.ts';

export const insightsJobs = new Hono<AppEnv>();

insightsJobs.post('/refresh', async (c) => {
  const body = verifiedJson<{ system?: unknown; name?: unknown }>(c);
  const system = String(body?.system ?? '').toUpperCase() as System;
  if (!SYSTEMS.includes(system) || typeof body.name !== 'string' || !body.name)
    throw new HttpError(400, 'body must be {system, name}');
  try {
    const name = await ingestPackage(c.env, c.get('db'), system, body.name);
    if (name !== null && system === 'NPM') await queueNpmPending(c.env, [name]);
    return c.json({ refreshed: name !== null, system, name: name ?? body.name });
  } catch (err) {
    if (!isUpstreamFailure(err)) throw err; // a bug: onError logs it with its stack
    warnUpstream(system, err, `refresh of ${system} ${body.name}`);
    return c.json({ error: 'upstream failed; retry' }, 503);
  }
});

insightsJobs.post('/dependencies', async (c) => {
  const body = verifiedJson<{ system?: unknown; name?: unknown; version?: unknown; round?: unknown }>(c);
  const system = String(body?.system ?? '') as ResolveSystem;
  if (!GRAPH_SYSTEMS.includes(system) || typeof body.name !== 'string' || typeof body.version !== 'string') {
    throw new HttpError(400, 'body must be {system, name, version, round}');
  }
  const key = { system, name: body.name, version: body.version };
  const round = Number.isInteger(body.round) ? Number(body.round) : 1;
  const env = c.env as unknown as Record<string, unknown>;
  const out = await buildGraph({ env, db: c.get('db'), readThrough: true }, key);
  if (out.kind === 'graph') {
    await queueAdvisories(c.env, system, out.stored);
    return c.json({ complete: true, cached: out.cached });
  }
  if (out.kind === 'not-found') return c.json({ complete: false, error: out.message });
  await queueAdvisories(c.env, system, out.stored);
  if (out.stored.length === 0) return c.json({ error: `upstream failed; retry (${out.reason})` }, 503);
  await queueGraphCompletion(c.env, key, round + 1);
  return c.json({ complete: false, reason: out.reason, stored: out.stored.length });
});

insightsJobs.post('/advisories', async (c) => {
  const body = verifiedJson<{ system?: unknown; names?: unknown }>(c);
  const system = String(body?.system ?? '').toUpperCase() as System;
  const names = Array.isArray(body?.names)
    ? body.names.filter((n): n is string => typeof n === 'string' && n !== '')
    : [];
  if (!SYSTEMS.includes(system) || names.length === 0) throw new HttpError(400, 'body must be {system, names}');
  let failed = 0;
  const env = c.env as unknown as Record<string, unknown>;
  for (const name of names) if (!(await readAdvisories(env, c.get('db'), system, name))) failed++;
  return failed
    ? c.json({ error: `advisories of ${failed} packages not stored; retry` }, 503)
    : c.json({ stored: names.length });
});

insightsJobs.post('/npm-pending', async (c) => {
  const body = verifiedJson<{ names?: unknown; before?: unknown }>(c);
  const names = Array.isArray(body?.names)
    ? body.names.filter((n): n is string => typeof n === 'string' && n !== '')
    : [];
  if (names.length === 0) throw new HttpError(400, 'body must be {names, before}');
  const before = names.length === 1 && Number.isInteger(body.before) ? Number(body.before) : NPM_PENDING_TOP;
  let more = 0;
  for (const name of names) {
    const next = await completeNpmBatch(c.env, c.get('db'), name, before);
    if (next === null) continue;
    more++;
    await queueNpmPending(c.env, [name], next);
  }
  return c.json({ packages: names.length, more });
});

insightsJobs.post('/attestations', async (c) => {
  const body = verifiedJson<{ system?: unknown; name?: unknown }>(c);
  const system = String(body?.system ?? '').toUpperCase();
  if ((system !== 'NPM' && system !== 'PYPI') || typeof body.name !== 'string' || !body.name)
    throw new HttpError(400, 'body must be {system: NPM|PYPI, name}');
  try {
    const more = await checkAttestations(c.env, c.get('db'), system, body.name);
    if (more) await queueAttestationChecks(c.env, system, body.name);
    return c.json({ system, name: body.name, more });
  } catch (err) {
    if (!isUpstreamFailure(err)) throw err;
    warnUpstream(system, err, `attestation checks of ${system} ${body.name}`);
    return c.json({ error: 'upstream failed; retry' }, 503);
  }
});
