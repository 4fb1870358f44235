-- An event's size as an item of a delivery body (`{"<event_name>":<payload>}` as JSON.stringify writes
-- it, src/webhooks/payload.ts's itemSize), computed in TypeScript when the event is recorded
-- (src/webhooks/events.ts). Fan-out copies it into the queue, so batches are cut on the bytes that are
-- sent; events recorded before this column existed keep the size fan-out computes from jsonb.
ALTER TABLE webhooks.outbox ADD COLUMN size integer;
