-- Platform tables shared by every function.
CREATE SCHEMA IF NOT EXISTS platform;

-- Keys of queue messages (or events) already handled: see src/platform/idempotency.ts.
CREATE TABLE platform.processed_messages (
  key text PRIMARY KEY,
  processed_at timestamptz NOT NULL DEFAULT now()
);

-- Rows written by the platform's own queue round trip (the /platform/echo delivery route).
CREATE TABLE platform.queue_echoes (
  message_id text PRIMARY KEY,
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
