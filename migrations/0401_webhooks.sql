-- The webhook resource (UltraCart-compatible), merchant API keys, per-webhook delivery queue and logs.
-- Delivery invariants (see src/webhooks/deliver.ts): each outbox event is fanned out once
-- (fanned_out_at), into webhooks.queue rows per subscribed webhook; a webhook's rows are delivered in
-- queue_id order, one batch in flight (lease on the webhook row), a row is marked delivered only
-- after a 2xx, and a retried batch keeps its batch_id (the webhook-id header).

ALTER TABLE webhooks.outbox ADD COLUMN fanned_out_at timestamptz;
CREATE INDEX outbox_unfanned_idx ON webhooks.outbox (event_id) WHERE fanned_out_at IS NULL;

CREATE TABLE webhooks.merchant_keys (
  key_id serial PRIMARY KEY,
  merchant_id text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  -- HMAC-SHA256(api key, "webhook-signing"), encrypted: the "api user" delivery signature key,
  -- derivable by whoever holds the key, not from key_hash.
  signing_key_enc text NOT NULL,
  label text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX merchant_keys_merchant_idx ON webhooks.merchant_keys (merchant_id);

CREATE TABLE webhooks.webhooks (
  webhook_oid serial PRIMARY KEY,
  merchant_id text NOT NULL,
  api_user_oid integer REFERENCES webhooks.merchant_keys (key_id) ON DELETE SET NULL,
  application_profile jsonb,
  api_version text NOT NULL DEFAULT '2017-03-01',
  authentication_type text NOT NULL DEFAULT 'none',
  basic_username text,
  basic_password_enc text,
  iam_access_key text,
  iam_secret_key_enc text,
  compress_events boolean NOT NULL DEFAULT false,
  disabled boolean NOT NULL DEFAULT false,
  events text[] NOT NULL DEFAULT '{}',
  expansions jsonb NOT NULL DEFAULT '{}',
  maximum_events integer NOT NULL DEFAULT 10,
  maximum_size integer NOT NULL DEFAULT 900000,
  merchant_comments text,
  name text,
  webhook_url text NOT NULL,
  signing_secret_enc text NOT NULL,
  -- delivery state
  consecutive_failures integer NOT NULL DEFAULT 0,
  next_retry_after timestamptz,
  retry_token text,
  inflight_batch text,
  lease_token text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_merchant_idx ON webhooks.webhooks (merchant_id, webhook_oid);
CREATE INDEX webhooks_events_idx ON webhooks.webhooks USING gin (events);

CREATE TABLE webhooks.queue (
  queue_id bigserial PRIMARY KEY,
  webhook_oid integer NOT NULL REFERENCES webhooks.webhooks (webhook_oid) ON DELETE CASCADE,
  event_id bigint,
  event_name text NOT NULL,
  payload jsonb NOT NULL,
  size integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  batch_id text,
  delivered_at timestamptz,
  UNIQUE (webhook_oid, event_id)
);
CREATE INDEX queue_pending_idx ON webhooks.queue (webhook_oid, queue_id) WHERE delivered_at IS NULL;

CREATE TABLE webhooks.logs (
  request_id text PRIMARY KEY,
  webhook_oid integer NOT NULL REFERENCES webhooks.webhooks (webhook_oid) ON DELETE CASCADE,
  batch_id text NOT NULL,
  delivery_dts timestamptz NOT NULL DEFAULT now(),
  duration integer NOT NULL,
  queue_delay integer NOT NULL,
  request text NOT NULL,
  request_headers jsonb NOT NULL,
  response text NOT NULL,
  response_headers jsonb NOT NULL,
  status_code integer NOT NULL,
  success boolean NOT NULL,
  uri text NOT NULL,
  event_count integer NOT NULL
);
CREATE INDEX logs_webhook_idx ON webhooks.logs (webhook_oid, delivery_dts DESC);
