/** Rows of the attempts API rendered in the resource's style (snake_case, `_dts` times, absent = omitted). */
import type { AttemptRow, EventRow, WebhookAttemptRow, WebhookStats } from './queries-attempts.ts';

const ageSeconds = (d: Date | string, now: number) => Math.max(0, Math.floor((now - new Date(d).getTime()) / 1000));
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function eventView(e: EventRow) {
  return {
    queue_id: Number(e.queue_id),
    event_id: e.event_id === null ? null : Number(e.event_id),
    event_name: e.event_name,
    replay: e.replay_id !== null,
    queued_dts: iso(e.created_at),
    delivered_dts: iso(e.delivered_at),
    state: e.delivered_at === null ? 'pending' : 'delivered',
    attempts: e.attempts,
    last_status_code: e.last_status,
  };
}

export function attemptView(a: WebhookAttemptRow & Partial<Pick<AttemptRow, 'queue_id' | 'replay_id'>>) {
  return {
    attempt_dts: iso(a.delivery_dts),
    request_id: a.request_id,
    webhook_id: a.batch_id,
    status_code: a.status_code,
    success: a.success,
    latency_ms: a.duration,
    response_excerpt: a.excerpt,
    event_count: a.event_count,
    queue_id: a.queue_id === undefined ? null : Number(a.queue_id),
    replay: a.replay_id === undefined ? null : a.replay_id !== null,
  };
}

export function statsView(s: WebhookStats, now = Date.now()) {
  return {
    attempts: s.attempts,
    successful_attempts: s.successful,
    success_rate: s.attempts === 0 ? null : Math.round((s.successful / s.attempts) * 10_000) / 10_000,
    events_delivered: s.delivered,
    events_pending: s.pending,
    oldest_undelivered_event: s.oldest
      ? { ...eventView(s.oldest), age_seconds: ageSeconds(s.oldest.created_at, now) }
      : null,
  };
}
