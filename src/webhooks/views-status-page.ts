/**
 * The webhook status page: a small server-rendered HTML view of one webhook for operators (state,
 * success rate, oldest undelivered event, latest attempts and events). Every value from the
 * database or the receiver (names, URLs, answers) goes through escapeHtml; the page has no script
 * and is served with a CSP that forbids any (`default-src 'none'`).
 */
import { escapeHtml } from '../platform/html.ts';
import type { attemptView, eventView, statsView } from './views-attempts.ts';
import type { WebhookRow } from './queries.ts';

export const STATUS_PAGE_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

type Stats = ReturnType<typeof statsView>;
type Attempt = ReturnType<typeof attemptView>;
type Event = ReturnType<typeof eventView>;

const e = (v: unknown) => escapeHtml(v === null || v === undefined ? '–' : String(v));

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#f4f4f4}
.ok{color:#075e07}.fail{color:#a30d0d}code{white-space:pre-wrap;word-break:break-all}`;

function row(cells: string[], tag = 'td'): string {
  return `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
}

export function renderStatusPage(w: WebhookRow, stats: Stats, attempts: Attempt[], events: Event[]): string {
  const rate = stats.success_rate === null ? '–' : `${(stats.success_rate * 100).toFixed(1)} %`;
  const oldest = stats.oldest_undelivered_event;
  const summary = [
    ['webhook', `#${e(w.webhook_oid)} ${e(w.name)}`],
    ['url', `<code>${e(w.webhook_url)}</code>`],
    ['state', w.disabled ? '<span class="fail">disabled</span>' : '<span class="ok">enabled</span>'],
    ['pending events', e(stats.events_pending)],
    ['delivered events', e(stats.events_delivered)],
    [
      'attempts',
      `${e(stats.attempts)} (${e(stats.successful_attempts)} successful, ` +
        `<span id="success-rate">${e(rate)}</span>)`,
    ],
    ['consecutive failures', e(w.consecutive_failures)],
    ['next retry after', e(w.next_retry_after ? new Date(w.next_retry_after).toISOString() : null)],
    [
      'oldest undelivered event',
      oldest
        ? `<span id="oldest">${e(oldest.event_name)} #${e(oldest.event_id ?? `q${oldest.queue_id}`)}, ` +
          `queued ${e(oldest.queued_dts)} (${e(oldest.age_seconds)} s ago)</span>`
        : '<span id="oldest">none</span>',
    ],
  ]
    .map(([k, v]) => row([k!, v!]))
    .join('\n');
  const attemptRows = attempts
    .map((a) =>
      row([
        e(a.attempt_dts),
        `<span class="${a.success ? 'ok' : 'fail'}">${e(a.status_code)}</span>`,
        e(a.latency_ms),
        e(a.event_count),
        `<code>${e(a.webhook_id)}</code>`,
        `<code>${e(a.response_excerpt)}</code>`,
      ]),
    )
    .join('\n');
  const eventRows = events
    .map((x) =>
      row([
        e(x.event_id ?? '–'),
        e(x.event_name),
        e(x.state),
        e(x.attempts),
        e(x.last_status_code),
        e(x.replay ? 'replay' : ''),
        e(x.queued_dts),
      ]),
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Webhook ${e(w.webhook_oid)} status</title>
<style>${STYLE}</style></head>
<body><h1>Webhook ${e(w.webhook_oid)} status</h1>
<table id="summary">${summary}</table>
<h2>Latest attempts</h2>
<table id="attempts">${row(['time', 'status', 'latency ms', 'events', 'webhook-id', 'answer (first characters)'], 'th')}
${attemptRows}</table>
<h2>Latest events</h2>
<table id="events">${row(['event', 'name', 'state', 'attempts', 'last status', '', 'queued'], 'th')}
${eventRows}</table>
</body></html>`;
}

/** Headers of the status page and its refusals: no script, no framing, no referrer (a link carries a token). */
export const STATUS_PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': STATUS_PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

const REFUSALS = {
  expired: ['This link has expired', 'Status links are valid for a short time. Ask the API for a new one'],
  invalid: [
    'This link is not valid',
    'The link is incomplete, altered or for another webhook. Ask the API for a new one',
  ],
} as const;

/** The page a browser gets for an expired or invalid status link (served with 403). */
export function renderLinkRefused(why: keyof typeof REFUSALS): string {
  const [title, text] = REFUSALS[why];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>${STYLE}</style></head>
<body><h1 id="refused" data-reason="${why}">${title}</h1>
<p>${text} (<code>POST /rest/v2/webhook/webhooks/{webhook_oid}/status_link</code> with the merchant key).</p>
</body></html>`;
}
