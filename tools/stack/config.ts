/**
 * Ports, URLs and development secrets of the local stack. The secrets here are public development
 * values (like QStash's own development token and keys); production reads real ones from wrangler
 * secrets. Every function gets the same variable set (`workerVars`), named as functions/config.ts
 * declares them (a misspelt name is a type error).
 *
 * Every default port lies below Linux's ephemeral range (32768-60999), where the kernel picks the
 * source ports of outgoing connections (a test run's clients could otherwise hold a stack port), and
 * each one is overridable by the environment variable named in PORT_VARIABLES (listed in the README).
 */
import { GROUPS } from '../../functions/config.ts';
import type { Env } from '../../src/platform/env.ts';

export const DEFAULT_PORTS = {
  postgres: 25432,
  neonProxy: 4444,
  qstash: 8080,
  mail: 8025,
  sample: 8030,
  insights: 8787,
  marketplace: 8788,
  pipeline: 8789,
  delivery: 8790,
  inspector: 9230,
} as const;
export type PortName = keyof typeof DEFAULT_PORTS;

/** The environment variable that overrides each port. `inspector` is the first of four (one per function). */
export const PORT_VARIABLES: Record<PortName, string> = {
  postgres: 'PGLITE_PORT',
  neonProxy: 'NEON_PROXY_PORT',
  qstash: 'QSTASH_PORT',
  mail: 'MAIL_PORT',
  sample: 'SAMPLE_PORT',
  insights: 'INSIGHTS_PORT',
  marketplace: 'MARKETPLACE_PORT',
  pipeline: 'PIPELINE_PORT',
  delivery: 'DELIVERY_PORT',
  inspector: 'INSPECTOR_PORT',
};

/** Ports from the environment; a value that is not a port number is an error (one line, see start.ts). */
export function portsFrom(env: Record<string, string | undefined>): Record<PortName, number> {
  const out = {} as Record<PortName, number>;
  for (const name of Object.keys(DEFAULT_PORTS) as PortName[]) {
    const raw = env[PORT_VARIABLES[name]];
    const n = raw === undefined || raw === '' ? DEFAULT_PORTS[name] : Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 65535)
      throw new Error(`${PORT_VARIABLES[name]}=${raw} is not a port number (1-65535)`);
    out[name] = n;
  }
  return out;
}

export const FUNCTIONS = ['insights', 'marketplace', 'pipeline', 'delivery'] as const;
export type FunctionName = (typeof FUNCTIONS)[number];

/** QStash's published development-server credentials (`@upstash/qstash` with QSTASH_DEV=1 uses them). */
export const QSTASH_DEV = {
  token: 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=',
  currentSigningKey: 'sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r',
  nextSigningKey: 'sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs',
};

export const DEV_SECRETS: { [K in keyof Env]?: string } = {
  JWT_SECRET: 'local-development-jwt-secret-change-me-0123456789',
  ENCRYPTION_KEY: 'bG9jYWwtZGV2ZWxvcG1lbnQta2V5LTMyLWJ5dGVzISE=',
  MAIL_API_KEY: 'local-mail-key',
  PIPELINE_ADMIN_TOKEN: 'local-pipeline-admin-token',
};

/** Addresses of a stack on the given ports. */
export function localUrls(ports: Record<PortName, number>) {
  return {
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${ports.postgres}/postgres`,
    neonProxy: `127.0.0.1:${ports.neonProxy}`,
    qstashUrl: `http://127.0.0.1:${ports.qstash}`,
    mailUrl: `http://127.0.0.1:${ports.mail}`,
    sampleUrl: `http://127.0.0.1:${ports.sample}`,
    url: (fn: FunctionName) => `http://127.0.0.1:${ports[fn]}`,
  };
}

/** Ports and addresses of `npm start` (defaults, or the variables above). */
export const PORTS = portsFromEnvOrDefaults();
export const LOCAL = localUrls(PORTS);

function portsFromEnvOrDefaults(): Record<PortName, number> {
  try {
    return portsFrom(process.env);
  } catch {
    return { ...DEFAULT_PORTS }; // start.ts validates again and reports the bad variable
  }
}

/** Every declared variable (functions/config.ts), in declaration order. */
export const VARIABLES = Object.values(GROUPS).flatMap((g) => Object.keys(g)) as (keyof Env)[];

/**
 * Declared variables `npm start` passes on from its own environment when set (e.g. the webhook retry
 * settings a developer shortens locally, docs/webhooks.md): every one the stack does not set itself.
 */
export const PASS_THROUGH_VARS: string[] = VARIABLES.filter((k) => !(k in workerVars('', {}, LOCAL)));

/**
 * Variables every function receives on a stack at `urls` (default: `npm start`'s). Tests pass their
 * own stack's addresses (test/support/env.ts) so nothing points at a running `npm start`.
 */
export function workerVars(
  databaseUrl: string,
  overrides: Record<string, string> = {},
  urls = LOCAL,
): Record<string, string> {
  const stack: { [K in keyof Env]?: string } = {
    DATABASE_URL: databaseUrl,
    NEON_LOCAL_PROXY: urls.neonProxy,
    QSTASH_URL: urls.qstashUrl,
    QSTASH_TOKEN: QSTASH_DEV.token,
    QSTASH_CURRENT_SIGNING_KEY: QSTASH_DEV.currentSigningKey,
    QSTASH_NEXT_SIGNING_KEY: QSTASH_DEV.nextSigningKey,
    DELIVERY_URL: urls.url('delivery'),
    MAIL_API_URL: urls.mailUrl,
    MAIL_FROM: 'Local Stack <no-reply@local.test>',
    OUTBOUND_ALLOWLIST: '127.0.0.1,localhost',
    OUTBOUND_LOOPBACK_HTTP: 'on',
    INSIGHTS_URL: urls.url('insights'),
    MARKETPLACE_URL: urls.url('marketplace'),
    PIPELINE_URL: urls.url('pipeline'),
    OWNER_EMAILS: 'owner@demo.edu',
    ...DEV_SECRETS,
  };
  return { ...(stack as Record<string, string>), ...overrides };
}
