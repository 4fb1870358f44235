-- Rate limits of login, sign-up and password-reset requests (issue 37): one counter per key (the
-- action and an address, or the action and a client address), restarted when its window has passed.
-- The API and the pages reach the same counters, through src/marketplace/rate-limit.ts.
CREATE TABLE market.rate_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);
