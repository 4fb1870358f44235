-- Recovery (src/webhooks/routes-replay.ts): a replay of a webhook's events between two times. One row
-- per (webhook, window), so asking for the same window again finds it; its queue rows carry
-- (replay_id, replay_event_id), unique, so a window's event is queued at most once per replay.
CREATE TABLE webhooks.replays (
  replay_id bigserial PRIMARY KEY,
  webhook_oid integer NOT NULL REFERENCES webhooks.webhooks (webhook_oid) ON DELETE CASCADE,
  since timestamptz NOT NULL,
  until timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (webhook_oid, since, until)
);

ALTER TABLE webhooks.queue ADD COLUMN replay_id bigint REFERENCES webhooks.replays (replay_id) ON DELETE CASCADE;
ALTER TABLE webhooks.queue ADD COLUMN replay_event_id bigint;
ALTER TABLE webhooks.queue ADD CONSTRAINT queue_replay_event_key UNIQUE (replay_id, replay_event_id);
