-- Retention (src/webhooks/queries-retention.ts): the cron sweep deletes delivered queue rows and logs
-- older than WEBHOOK_RETENTION_DAYS, and fanned-out outbox events older than WEBHOOK_REPLAY_DAYS; these
-- indexes let it find the oldest rows without reading the tables.
CREATE INDEX queue_delivered_idx ON webhooks.queue (delivered_at) WHERE delivered_at IS NOT NULL;
CREATE INDEX logs_delivery_dts_idx ON webhooks.logs (delivery_dts);
CREATE INDEX replays_created_idx ON webhooks.replays (created_at);
