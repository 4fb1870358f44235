/** The webhook resource's delivery variables (docs/webhooks.md). Read with `webhooksConfig(env)`. */
import { configReader, variable, type VariableGroup } from '../platform/config/define.ts';
import { integer, nonNegative, text } from '../platform/config/kinds.ts';

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
} satisfies VariableGroup;

export const webhooksConfig = configReader(WEBHOOKS);
