-- Pipeline service (insight pipeline admin, after insight-flow): sources, articles, tasks and their
-- event log, providers (fixed ids), destinations (fixed ids), monitors, monitor-run steps, reports.
CREATE SCHEMA IF NOT EXISTS pipeline;

CREATE TABLE pipeline.sources (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  category text NOT NULL,
  collect_method text NOT NULL,
  config jsonb NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  status text NOT NULL DEFAULT 'healthy',
  last_collected timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sources_category_idx ON pipeline.sources (category);

-- One row per article URL (articles are stored once per URL).
CREATE TABLE pipeline.articles (
  id uuid PRIMARY KEY,
  source_id uuid REFERENCES pipeline.sources (id) ON DELETE SET NULL,
  url text NOT NULL UNIQUE,
  title text NOT NULL,
  summary text NOT NULL DEFAULT '',
  published_at timestamptz,
  collected_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX articles_source_idx ON pipeline.articles (source_id, collected_at);

CREATE TABLE pipeline.monitors (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  time_period text NOT NULL,
  report_type text NOT NULL,
  source_ids jsonb NOT NULL DEFAULT '[]',
  ai_routing jsonb NOT NULL DEFAULT '{}',
  destination_ids jsonb NOT NULL DEFAULT '[]',
  window_hours integer NOT NULL DEFAULT 24,
  custom_schedule text,
  enabled boolean NOT NULL DEFAULT true,
  next_run_at timestamptz,
  last_run timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Collection tasks: direct (source) tasks and monitor-run tasks (run_id = id of the run).
CREATE TABLE pipeline.tasks (
  id uuid PRIMARY KEY,
  run_id uuid NOT NULL,
  monitor_id uuid REFERENCES pipeline.monitors (id) ON DELETE SET NULL,
  source_id uuid REFERENCES pipeline.sources (id) ON DELETE SET NULL,
  trigger_type text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  started_at timestamptz,
  finished_at timestamptz,
  articles_count integer NOT NULL DEFAULT 0,
  error_message text,
  stage_trace jsonb NOT NULL DEFAULT '[]',
  window_hours integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tasks_created_idx ON pipeline.tasks (created_at DESC);
CREATE INDEX tasks_status_idx ON pipeline.tasks (status);
CREATE INDEX tasks_monitor_idx ON pipeline.tasks (monitor_id, created_at DESC);

CREATE TABLE pipeline.task_events (
  id bigserial PRIMARY KEY,
  run_id uuid NOT NULL,
  task_id uuid NOT NULL,
  monitor_id uuid,
  source_id uuid,
  stage text NOT NULL,
  level text NOT NULL DEFAULT 'info',
  event_type text NOT NULL,
  message text NOT NULL DEFAULT '',
  payload jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX task_events_run_idx ON pipeline.task_events (run_id, id);
CREATE INDEX task_events_task_idx ON pipeline.task_events (task_id, id);

-- Queued steps of a monitor run: collect -> report -> publish:<destination>.
CREATE TABLE pipeline.run_steps (
  run_id uuid NOT NULL REFERENCES pipeline.tasks (id) ON DELETE CASCADE,
  step text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  error text,
  result jsonb NOT NULL DEFAULT '{}',
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (run_id, step)
);

CREATE TABLE pipeline.providers (
  id text PRIMARY KEY,
  name text NOT NULL,
  enabled boolean NOT NULL DEFAULT false,
  base_url text NOT NULL,
  model text NOT NULL,
  api_key_enc text,
  timeout_sec integer NOT NULL DEFAULT 60,
  max_retry integer NOT NULL DEFAULT 2,
  temperature double precision NOT NULL DEFAULT 0.3,
  max_output_tokens integer NOT NULL DEFAULT 2048,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO pipeline.providers (id, name, base_url, model, timeout_sec) VALUES
  ('llm_alpha', 'LLM Alpha', 'https://api.openai.com/v1', 'gpt-5-codex', 120),
  ('llm_beta', 'LLM Beta', 'https://api.openai.com/v1', 'gpt-4o-mini', 60);

-- Destinations: fixed ids notion | obsidian | rss. `config` holds no secrets in clear: the token
-- (notion) and api_key (obsidian) live encrypted in secret_enc.
CREATE TABLE pipeline.destinations (
  id text PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL,
  enabled boolean NOT NULL DEFAULT false,
  config jsonb NOT NULL DEFAULT '{}',
  secret_enc text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO pipeline.destinations (id, name, description, enabled, config) VALUES
  ('notion', 'Notion', 'Sync reports to databases via Notion Integration.', false,
   '{"database_id": "", "parent_page_id": "", "title_property": "Name", "summary_property": "TL;DR", "template_version": "v1", "api_url": "https://api.notion.com"}'),
  ('obsidian', 'Obsidian', 'Write markdown to your Obsidian vault or REST bridge.', false,
   '{"mode": "rest", "api_url": "https://127.0.0.1:27124", "vault_path": "", "target_folder": "AI Daily/"}'),
  ('rss', 'RSS', 'Expose generated reports as RSS feed.', true,
   '{"feed_url": "", "site_url": "", "feed_title": "Insight Pipeline Reports", "feed_description": "Reports generated by the insight pipeline.", "max_items": 20}');

CREATE TABLE pipeline.reports (
  id uuid PRIMARY KEY,
  run_id uuid UNIQUE,
  monitor_id uuid,
  time_period text NOT NULL,
  report_type text NOT NULL,
  title text NOT NULL,
  content text NOT NULL,
  article_ids jsonb NOT NULL DEFAULT '[]',
  metadata jsonb NOT NULL DEFAULT '{}',
  published_to jsonb NOT NULL DEFAULT '[]',
  publish_trace jsonb NOT NULL DEFAULT '[]',
  report_date date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reports_order_idx ON pipeline.reports (report_date DESC, created_at DESC);
