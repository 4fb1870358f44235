/**
 * What the pipeline accepts: the zod schemas of its request bodies and queries (routes-*.ts) and of its
 * queue messages (jobs.ts), one section per endpoint group. Shapes and limits follow the original's
 * request models; routes answer a failure with 422 in the FastAPI dialect (platform/validate.ts).
 */
import * as z from 'zod';
import { COLLECT_METHODS } from './collectors/index.ts';
import { parseCron } from './cron.ts';
import { TASK_STATUSES } from './queries-tasks.ts';
import { DESTINATION_IDS, PROVIDER_IDS, type DestinationId } from './settings.ts';

// sources
export const CATEGORIES = ['open_source', 'blog', 'academic', 'social'] as const;

const sourceConfig = z.record(z.string(), z.unknown());
export const sourceCreate = z.object({
  name: z.string().trim().min(1).max(128),
  category: z.enum(CATEGORIES),
  collect_method: z.enum(COLLECT_METHODS),
  config: sourceConfig.default({}),
  enabled: z.boolean().default(true),
});
export const sourcePatch = z
  .object({
    name: z.string().trim().min(1).max(128).optional(),
    config: sourceConfig.optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
const when = z.iso.datetime({ offset: true }).or(z.iso.date());
export const sourceTest = z.object({
  keywords: z.array(z.string().max(100)).max(20).optional(),
  max_results: z.number().int().min(1).max(200).optional(),
  start_at: when.nullable().optional(),
  end_at: when.nullable().optional(),
});

// destinations
const httpUrl = z
  .string()
  .max(500)
  .refine((u) => /^https?:\/\/[^\s]+$/i.test(u), 'must be an http(s) URL');
export const destinationConfigs: Record<DestinationId, z.ZodType<Record<string, unknown>>> = {
  notion: z
    .object({
      token: z.string().max(500).nullable().optional(),
      database_id: z.string().max(300).optional(),
      parent_page_id: z.string().max(300).optional(),
      title_property: z.string().min(1).max(100).optional(),
      summary_property: z.string().max(100).optional(),
      template_version: z.string().max(20).optional(),
      api_url: httpUrl.optional(),
    })
    .strict(),
  obsidian: z
    .object({
      mode: z.enum(['rest', 'file']).optional(),
      api_url: httpUrl.optional(),
      api_key: z.string().max(500).nullable().optional(),
      vault_path: z.string().max(1000).optional(),
      target_folder: z.string().max(300).optional(),
    })
    .strict(),
  rss: z
    .object({
      feed_url: z.union([httpUrl, z.literal('')]).optional(),
      site_url: z.union([httpUrl, z.literal('')]).optional(),
      feed_title: z.string().max(200).optional(),
      feed_description: z.string().max(1000).optional(),
      max_items: z.number().int().min(1).max(100).optional(),
    })
    .strict(),
};
export const destinationPatch = z
  .object({
    name: z.string().trim().min(1).max(128).optional(),
    enabled: z.boolean().optional(),
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

// providers
export const providerConfig = z
  .object({
    base_url: z
      .string()
      .url()
      .max(500)
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
      .optional(),
    model: z.string().trim().min(1).max(200).optional(),
    api_key: z.string().max(500).nullable().optional(),
    timeout_sec: z.number().int().min(1).max(600).optional(),
    max_retry: z.number().int().min(0).max(10).optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_output_tokens: z.number().int().min(1).max(200_000).optional(),
  })
  .strict();
export const providerPatch = z.object({ enabled: z.boolean().optional(), config: providerConfig.optional() }).strict();
export const providerTest = z.object({ config: providerConfig.optional() });

// reports
export const TIME_PERIODS = ['daily', 'weekly', 'custom'] as const;
export const REPORT_TYPES = ['daily', 'weekly', 'research', 'paper'] as const;

export const reportList = z.object({
  time_period: z.enum(TIME_PERIODS).optional(),
  report_type: z.enum(REPORT_TYPES).optional(),
  monitor_id: z.string().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  page: z.coerce.number().int().min(1).default(1),
});
export const reportPublish = z.object({
  destination_id: z.string().optional(),
  destination_ids: z.array(z.string()).max(3).optional(),
  destination_instance_ids: z.array(z.string()).max(3).optional(),
});
export const reportCustom = z.object({
  title: z.string().min(1).max(256),
  prompt: z.string().min(1).max(10_000),
  time_period: z.enum(TIME_PERIODS).default('custom'),
  report_type: z.enum(REPORT_TYPES).default('research'),
  category: z.string().max(32).optional(),
  report_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});

// monitors
export const MONITOR_STAGES = ['filter', 'keywords', 'global_summary', 'paper_review', 'paper_note', 'report'] as const;
const cron = z
  .string()
  .max(100)
  .refine((s) => {
    try {
      parseCron(s);
      return true;
    } catch {
      return false;
    }
  }, 'not a valid 5-field cron expression');
const aiRouting = z.object({
  stages: z
    .partialRecord(z.enum(MONITOR_STAGES), z.object({ primary: z.enum(PROVIDER_IDS).nullable().optional() }))
    .optional(),
  providers: z.partialRecord(z.enum(PROVIDER_IDS), z.record(z.string(), z.unknown())).optional(),
});
const sourceOverride = z
  .object({
    max_items: z.number().int().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(200).optional(),
    max_results: z.number().int().min(1).max(200).optional(),
    keywords: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
    usernames: z.array(z.string().trim().min(1).max(64)).max(50).optional(),
    subreddits: z.array(z.string().trim().min(1).max(64)).max(50).optional(),
  })
  .strict();
export const monitorFields = {
  name: z.string().trim().min(1).max(128),
  time_period: z.enum(TIME_PERIODS),
  report_type: z.enum(REPORT_TYPES),
  source_ids: z.array(z.string().uuid()).max(100),
  source_overrides: z.record(z.string().uuid(), sourceOverride),
  ai_routing: aiRouting,
  destination_ids: z.array(z.enum(DESTINATION_IDS)).max(3),
  window_hours: z.number().int().min(1).max(168),
  custom_schedule: cron.nullable(),
  enabled: z.boolean(),
};
export const monitorCreate = z
  .object({
    ...monitorFields,
    time_period: monitorFields.time_period.default('daily'),
    report_type: monitorFields.report_type.optional(),
    source_ids: monitorFields.source_ids.default([]),
    source_overrides: monitorFields.source_overrides.default({}),
    ai_routing: monitorFields.ai_routing.default({}),
    destination_ids: monitorFields.destination_ids.default([]),
    window_hours: monitorFields.window_hours.default(24),
    custom_schedule: monitorFields.custom_schedule.default(null),
    enabled: monitorFields.enabled.default(true),
  })
  .strict();
export const monitorPatch = z.object(monitorFields).partial().strict();

// tasks
export const taskList = z.object({
  category: z.string().max(32).optional(),
  status: z.enum(TASK_STATUSES).optional(),
  monitor_id: z.string().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  page: z.coerce.number().int().min(1).default(1),
});
export const taskTrigger = z
  .object({ source_id: z.string().uuid().optional(), category: z.string().min(1).max(32).optional() })
  .refine((b) => b.source_id !== undefined || b.category !== undefined, {
    message: 'source_id or category is required',
  });

// queue messages (jobs.ts)
export const taskRunJob = z.object({ taskId: z.string().uuid() });
export const monitorStepJob = z.object({
  runId: z.string().uuid(),
  step: z.string().regex(/^(collect|filter|keywords|global_summary|paper_review|paper_note|report|publish:[a-z]+)$/),
});
