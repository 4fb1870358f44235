-- Attempts API (src/webhooks/routes-attempts.ts): an event's attempts are the logs of the batches its
-- queue rows were sent in; replayed rows are found by the event they replay.
CREATE INDEX logs_batch_idx ON webhooks.logs (batch_id);
CREATE INDEX queue_replay_event_idx ON webhooks.queue (webhook_oid, replay_event_id) WHERE replay_event_id IS NOT NULL;
