/**
 * The provider that drives a browser agent source (`browser_use`, `codex_playwright`): the source's
 * `config.provider`, else (in a monitor run) the provider the monitor binds to its `report` stage;
 * undefined when none is bound or it is disabled (the collector then fails with a message saying so).
 */
import type { Db } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import type { ChatSettings } from './chat-client.ts';
import { AGENT_METHODS } from './collectors/index.ts';
import { getProvider } from './queries-settings.ts';
import { chatSettings } from './settings.ts';

export async function agentChat(
  env: Env,
  db: Db,
  source: { collect_method: string; config: Record<string, unknown> },
  monitorProvider?: string | null,
): Promise<ChatSettings | undefined> {
  if (!AGENT_METHODS.includes(source.collect_method)) return undefined;
  const id =
    typeof source.config.provider === 'string' && source.config.provider ? source.config.provider : monitorProvider;
  const provider = id ? await getProvider(db, id) : undefined;
  return provider?.enabled ? chatSettings(env, provider) : undefined;
}
