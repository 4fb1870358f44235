-- Throttle (src/webhooks/routes-throttle.ts): at most rate_limit_per_second attempts per second to a
-- webhook's receiver, paced by its delivery runs (deliver.ts); null = no limit.
ALTER TABLE webhooks.webhooks ADD COLUMN rate_limit_per_second double precision
  CHECK (rate_limit_per_second IS NULL OR rate_limit_per_second > 0);
