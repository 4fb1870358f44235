-- Event outbox written by the marketplace and pipeline in the same transaction as each change.
CREATE SCHEMA IF NOT EXISTS webhooks;

CREATE TABLE webhooks.outbox (
  event_id bigserial PRIMARY KEY,
  event_name text NOT NULL,
  object_id text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_created_idx ON webhooks.outbox (created_at);
