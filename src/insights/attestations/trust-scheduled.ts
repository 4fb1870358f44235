/** The delivery cron's part for insights: the Sigstore trust refresh (tuf-refresh.ts) on its own database handle. */
import { createDb } from '../../platform/db.ts';
import type { Env } from '../../platform/env.ts';
import { insightsConfig } from '../config.ts';
import { refreshSigstoreTrust, type RefreshResult } from './tuf-refresh.ts';

export async function refreshTrustScheduled(env: Env): Promise<RefreshResult> {
  const db = createDb(env);
  try {
    const c = insightsConfig(env);
    const r = await refreshSigstoreTrust(db, c.SIGSTORE_TUF_URL, c.INSIGHTS_TRUST_REFRESH_SECONDS);
    if (r.status === 'updated') console.log(`insights: sigstore trust refreshed (${r.detail})`);
    return r;
  } finally {
    await db.close();
  }
}
