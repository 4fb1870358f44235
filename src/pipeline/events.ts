/**
 * The pipeline's events: the payload contract of each (its API views as they go on the wire), its
 * category of the webhook catalogue and the reflow of its reports. Recorded through
 * src/platform/events.ts, which the webhook delivery reads; nothing here is imported by src/webhooks.
 */
import * as z from 'zod';
import {
  eventContract,
  eventEmitter,
  makeEvent,
  type EventCategoryDeclaration,
  REFLOW_LIMIT,
  type ReflowQuery,
} from '../platform/events.ts';
import type { ReportRow } from './queries-reports.ts';
import { publishedReportView } from './views.ts';

const id = z.string().min(1);
const isoTime = z.iso.datetime({ offset: true });

const trace = z.array(z.record(z.string(), z.unknown()));

export const taskSchema = z.strictObject({
  id,
  run_id: id,
  monitor_id: z.string().nullable(),
  source_id: z.string().nullable(),
  trigger_type: z.string(),
  status: z.string(),
  started_at: isoTime.nullable(),
  finished_at: isoTime.nullable(),
  articles_count: z.number().int(),
  error_message: z.string().nullable(),
  stage_trace: trace,
  created_at: isoTime,
});

/** A report as the pipeline API shows it, plus where it was published (`url` for external destinations). */
export const publishedReportSchema = z.strictObject({
  id,
  title: z.string(),
  time_period: z.string(),
  report_type: z.string(),
  report_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  monitor_id: z.string().nullable(),
  monitor_name: z.string().nullable(),
  tldr: z.string(),
  categories: z.array(z.unknown()),
  article_count: z.number().int(),
  published_to: z.array(z.string()),
  created_at: isoTime,
  topics: z.array(z.unknown()),
  content: z.string(),
  article_ids: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  publish_trace: trace,
  run_id: z.string().nullable(),
  destination: z.string(),
  url: z.string().nullable().optional(),
});

export const PIPELINE_EVENTS = {
  task_finished: eventContract(taskSchema, (t) => t.id),
  report_published: eventContract(publishedReportSchema, (r) => r.id),
};

export type PipelineEventName = keyof typeof PIPELINE_EVENTS;

/** Records one of its events in the outbox (inside the caller's transaction), checked against its contract. */
export const emitEvent = eventEmitter(PIPELINE_EVENTS);

/** report_published: every report, as published to the database (its first destination). */
const reflowReports: ReflowQuery = async (q) => {
  const rows = await q.query<ReportRow>(`SELECT * FROM pipeline.reports ORDER BY created_at, id LIMIT ${REFLOW_LIMIT}`);
  return rows.map((r) => makeEvent(PIPELINE_EVENTS, 'report_published', publishedReportView(r, 'database')));
};

export const PIPELINE_EVENT_CATEGORIES: EventCategoryDeclaration[] = [
  {
    event_category: 'pipeline',
    customerData: false,
    available_expansions: [],
    events: [
      {
        event_name: 'task_finished',
        event_description: 'A pipeline task finished',
        webhook_event_oid: 501,
        contract: PIPELINE_EVENTS.task_finished,
      },
      {
        event_name: 'report_published',
        event_description: 'A report was published',
        webhook_event_oid: 502,
        contract: PIPELINE_EVENTS.report_published,
        reflow: reflowReports,
      },
    ],
  },
];
