/**
 * Ports, URLs and development secrets of the local stack. The secrets here are public development
 * values (like QStash's own development token and keys); production reads real ones from wrangler
 * secrets. Every function gets the same variable set (`workerVars`).
 */
export const PORTS = {
  postgres: Number(process.env.PGLITE_PORT ?? 55432),
  neonProxy: Number(process.env.NEON_PROXY_PORT ?? 4444),
  qstash: Number(process.env.QSTASH_PORT ?? 8080),
  mail: Number(process.env.MAIL_PORT ?? 8025),
  insights: 8787,
  marketplace: 8788,
  pipeline: 8789,
  delivery: 8790,
} as const;

export const FUNCTIONS = ['insights', 'marketplace', 'pipeline', 'delivery'] as const;
export type FunctionName = (typeof FUNCTIONS)[number];

/** QStash's published development-server credentials (`@upstash/qstash` with QSTASH_DEV=1 uses them). */
export const QSTASH_DEV = {
  token: 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=',
  currentSigningKey: 'sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r',
  nextSigningKey: 'sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs',
};

export const DEV_SECRETS = {
  JWT_SECRET: 'local-development-jwt-secret-change-me-0123456789',
  ENCRYPTION_KEY: 'bG9jYWwtZGV2ZWxvcG1lbnQta2V5LTMyLWJ5dGVzISE=',
  MAIL_API_KEY: 'local-mail-key',
  PIPELINE_ADMIN_TOKEN: 'local-pipeline-admin-token',
};

export const LOCAL = {
  databaseUrl: `postgres://postgres:postgres@127.0.0.1:${PORTS.postgres}/postgres`,
  neonProxy: `127.0.0.1:${PORTS.neonProxy}`,
  qstashUrl: `http://127.0.0.1:${PORTS.qstash}`,
  mailUrl: `http://127.0.0.1:${PORTS.mail}`,
  url: (fn: FunctionName) => `http://127.0.0.1:${PORTS[fn]}`,
};

/** Variables every function receives locally. */
export function workerVars(databaseUrl: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    NEON_LOCAL_PROXY: LOCAL.neonProxy,
    QSTASH_URL: LOCAL.qstashUrl,
    QSTASH_TOKEN: QSTASH_DEV.token,
    QSTASH_CURRENT_SIGNING_KEY: QSTASH_DEV.currentSigningKey,
    QSTASH_NEXT_SIGNING_KEY: QSTASH_DEV.nextSigningKey,
    DELIVERY_URL: LOCAL.url('delivery'),
    MAIL_API_URL: LOCAL.mailUrl,
    MAIL_FROM: 'Local Stack <no-reply@local.test>',
    OUTBOUND_ALLOWLIST: '127.0.0.1,localhost',
    INSIGHTS_URL: LOCAL.url('insights'),
    MARKETPLACE_URL: LOCAL.url('marketplace'),
    PIPELINE_URL: LOCAL.url('pipeline'),
    OWNER_EMAILS: 'owner@demo.edu',
    ...DEV_SECRETS,
    ...overrides,
  };
}
