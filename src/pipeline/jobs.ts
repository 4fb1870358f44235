/**
 * Queue callbacks of the pipeline service, mounted by functions/delivery.ts under /pipeline (behind
 * verifyQstash): `/tasks/run` runs one direct collection task (state-checked, so a redelivery does
 * nothing), `/monitor-runs/step` runs one step of a monitor run. A step that failed and may be
 * retried answers 503 so the queue retries it; everything else answers 200. Webhook events recorded
 * by either are announced to the outbox after the response (waitUntil).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { verifiedJson } from '../platform/queue.ts';
import { parseWith } from '../platform/validate.ts';
import { notifyOutbox } from '../platform/events.ts';
import { runStep } from './monitor-runner.ts';
import { runTask } from './task-runner.ts';
import { monitorStepJob, taskRunJob } from './schemas.ts';

export const pipelineJobs = new Hono<AppEnv>();

pipelineJobs.post('/tasks/run', async (c) => {
  const { taskId } = parseWith(taskRunJob, verifiedJson(c));
  const r = await runTask(c.env, c.get('db'), taskId);
  if (r.ran) c.executionCtx.waitUntil(notifyOutbox(c.env));
  return c.json({ ok: true, ...r });
});

pipelineJobs.post('/monitor-runs/step', async (c) => {
  const { runId, step } = parseWith(monitorStepJob, verifiedJson(c));
  const retried = Number(c.req.header('Upstash-Retried') ?? '0');
  const r = await runStep(c.env, c.get('db'), runId, step, Number.isInteger(retried) ? retried : 0);
  if (r.status === 'retry') return c.json({ ok: false, retry: true, error: r.error }, 503);
  if (r.status !== 'skipped') c.executionCtx.waitUntil(notifyOutbox(c.env));
  return c.json({ ok: true, ...r });
});
