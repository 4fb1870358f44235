/** Pieces shared by the webhook resource's routers: the oid parameter and the merchant-scoped lookup. */
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { getWebhook, type WebhookRow } from './queries.ts';

export const BASE = '/rest/v2/webhook';

export const oidParam = z.object({ webhook_oid: z.coerce.number().int().min(1).max(2_147_483_647) });

/** The merchant's webhook, or a 404 (another merchant's webhook is not found either). */
export async function mustGet(db: AppEnv['Variables']['db'], merchantId: string, oid: number): Promise<WebhookRow> {
  const w = await getWebhook(db, merchantId, oid);
  if (!w) throw new HttpError(404, `webhook ${oid} not found`);
  return w;
}
