/** The marketplace service's variables. Read with `marketplaceConfig(env)`. */
import { configReader, variable, type VariableGroup } from '../platform/config/define.ts';
import { httpUrl, integer, lowerList } from '../platform/config/kinds.ts';
import { AUTH, DATABASE, QUEUE } from '../platform/config/shared.ts';

export const MARKETPLACE = {
  MARKETPLACE_URL: variable({
    schema: httpUrl,
    default: 'http://127.0.0.1:8788',
    meaning: 'public base URL of `marketplace`, for links in confirmation and reset mail',
  }),
  OWNER_EMAILS: variable({
    schema: lowerList,
    default: '',
    meaning: 'comma-separated addresses that become owner (2) when their sign-up is confirmed',
  }),
  MARKETPLACE_UNLIST_DAYS: variable({
    schema: integer(1),
    default: '62',
    meaning: 'age in days after which the daily cron unlists a listed book',
  }),
} satisfies VariableGroup;

export const marketplaceConfig = configReader(MARKETPLACE);

/** What the `marketplace` function reads (functions/marketplace.ts checks it before any route runs). */
export const marketplaceFunctionConfig = configReader(DATABASE, QUEUE, AUTH, MARKETPLACE);
