/** The webhook resource's delivery variables (docs/webhooks.md). Read with `webhooksConfig(env)`. */
import { configReader, variable, type VariableGroup } from '../platform/config/define.ts';
import { integer, nonNegative, text } from '../platform/config/kinds.ts';

const REPLAY_DAYS_DEFAULT = '30';

export const WEBHOOKS = {
  WEBHOOK_RETRY_BASE_SECONDS: variable({ schema: nonNegative, default: '5', meaning: 'retry backoff base' }),
  WEBHOOK_RETRY_MAX_SECONDS: variable({ schema: nonNegative, default: '3600', meaning: 'retry backoff cap' }),
  WEBHOOK_DISABLE_AFTER_FAILURES: variable({
    schema: integer(1),
    default: '48',
    meaning: 'consecutive failed attempts that disable a webhook',
  }),
  WEBHOOK_LEASE_SECONDS: variable({
    schema: integer(6),
    default: '90',
    meaning: 'lease on a webhook while a delivery run holds it (attempt timeout ≤ lease − 5 s)',
  }),
  AWS_REGION: variable({ schema: text, default: 'us-east-1', meaning: 'SigV4 region when an SQS URL names none' }),
  WEBHOOK_REPLAY_DAYS: variable({
    schema: integer(1),
    default: REPLAY_DAYS_DEFAULT,
    meaning: 'replay window: replay reaches events recorded in the last N days; older fanned-out events are pruned',
  }),
  WEBHOOK_RETENTION_DAYS: variable({
    schema: integer(1),
    default: '45',
    meaning:
      'delivered queue rows and delivery logs older than N days are pruned by the cron sweep (> WEBHOOK_REPLAY_DAYS)',
    check: (days, raw) =>
      days <= Number(raw('WEBHOOK_REPLAY_DAYS') ?? REPLAY_DAYS_DEFAULT)
        ? 'must be longer than WEBHOOK_REPLAY_DAYS (pruned rows are what keeps a replay from queuing twice)'
        : undefined,
  }),
} satisfies VariableGroup;

export const webhooksConfig = configReader(WEBHOOKS);
