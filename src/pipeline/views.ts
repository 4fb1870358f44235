/** API shapes of rows (the original's response models), shared by routes, runners and webhook payloads. */
import { targetUrl } from './collectors/index.ts';
import type { MonitorRow } from './queries-monitors.ts';
import type { ReportRow } from './queries-reports.ts';
import type { SourceRow } from './queries-sources.ts';
import type { TaskRow } from './queries-tasks.ts';

export function taskView(t: TaskRow) {
  return {
    id: t.id,
    run_id: t.run_id ?? t.id,
    monitor_id: t.monitor_id,
    source_id: t.source_id,
    trigger_type: t.trigger_type,
    status: t.status,
    started_at: t.started_at,
    finished_at: t.finished_at,
    articles_count: t.articles_count,
    error_message: t.error_message,
    stage_trace: t.stage_trace,
    created_at: t.created_at,
  };
}

export function sourceView(s: SourceRow) {
  const valid = ['healthy', 'error', 'running'].includes(s.status);
  const status = valid
    ? s.status
    : s.last_task_status === 'running'
      ? 'running'
      : s.last_task_status === 'failed'
        ? 'error'
        : 'healthy';
  return {
    id: s.id,
    name: s.name,
    category: s.category,
    collect_method: s.collect_method,
    config: s.config,
    enabled: s.enabled,
    status,
    last_collected: s.last_collected,
    target_url: targetUrl(s),
    last_run: s.last_run,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function monitorView(m: MonitorRow) {
  return {
    id: m.id,
    name: m.name,
    time_period: m.time_period,
    report_type: m.report_type,
    source_ids: m.source_ids,
    source_overrides: m.source_overrides ?? {},
    ai_routing: m.ai_routing,
    destination_ids: m.destination_ids,
    window_hours: m.window_hours,
    custom_schedule: m.custom_schedule,
    enabled: m.enabled,
    status: m.enabled ? 'active' : 'paused',
    next_run_at: m.next_run_at,
    last_run: m.last_run,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

export function reportDate(r: Pick<ReportRow, 'report_date'>): string {
  const d = r.report_date;
  if (typeof d === 'string') return d.slice(0, 10);
  // DATE comes back as local midnight from some drivers: read local parts, not UTC.
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function reportSummaryView(r: ReportRow) {
  return {
    id: r.id,
    title: r.title,
    time_period: r.time_period,
    report_type: r.report_type,
    report_date: reportDate(r),
    monitor_id: r.monitor_id,
    monitor_name: (r.metadata.monitor_name as string | undefined) ?? null,
    tldr: (r.metadata.global_tldr as string | undefined) ?? '',
    categories: (r.metadata.categories as string[] | undefined) ?? [],
    article_count: r.article_ids.length,
    published_to: r.published_to,
    created_at: r.created_at,
  };
}

export function reportView(r: ReportRow) {
  return {
    ...reportSummaryView(r),
    topics: (r.metadata.topics as unknown[] | undefined) ?? [],
    content: r.content,
    article_ids: r.article_ids,
    metadata: r.metadata,
    publish_trace: r.publish_trace,
    run_id: r.run_id,
  };
}

/** A report_published event's object: the report and the destination it went to (`url` for external ones). */
export function publishedReportView(r: ReportRow, destination: string, url?: string | null) {
  return { ...reportView(r), destination, ...(url === undefined ? {} : { url }) };
}
