/**
 * Bindings shared by every function, typed once. Each worker reads only what it needs; values come
 * from wrangler.toml [vars], secrets (`wrangler secret put`) or, locally, `--var` flags set by
 * `npm start` and `.dev.vars`. There is no process.env on Workers: everything arrives here.
 */
import type { Db } from './db.ts';

export interface Env {
  /** Postgres connection string (Neon in production, the local stack otherwise). */
  DATABASE_URL: string;
  /** host:port of a Neon-compatible local proxy; unset in production (Neon's own proxy is used). */
  NEON_LOCAL_PROXY?: string;

  QSTASH_URL?: string;
  QSTASH_TOKEN: string;
  QSTASH_CURRENT_SIGNING_KEY: string;
  QSTASH_NEXT_SIGNING_KEY: string;
  /** Public base URL of the `delivery` function, the destination QStash calls back. */
  DELIVERY_URL: string;

  MAIL_API_URL: string;
  MAIL_API_KEY: string;
  MAIL_FROM?: string;

  JWT_SECRET: string;
  JWT_ISSUER?: string;
  JWT_AUDIENCE?: string;

  /** base64 of 32 random bytes; AES-256-GCM key for secrets stored at rest. */
  ENCRYPTION_KEY: string;
  /** Comma-separated hosts (or host:port) that the outbound-URL guard lets through although private. */
  OUTBOUND_ALLOWLIST?: string;

  /** Public base URL of each function, for links in mail and pages. */
  MARKETPLACE_URL?: string;
  PIPELINE_URL?: string;
  INSIGHTS_URL?: string;

  [key: string]: unknown;
}

/** The subset of the Workers ExecutionContext the code relies on. */
export interface ExecutionContextLike {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException?(): void;
}

export interface AppVariables {
  db: Db;
  /** Raw request body, set by middleware that must read it before parsing (signature checks). */
  rawBody: string;
  /** Authenticated principal, set by each service's auth middleware. */
  principal: unknown;
}

export interface AppEnv {
  Bindings: Env;
  Variables: AppVariables;
}
