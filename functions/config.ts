/**
 * One configuration per function: the variable groups it reads, parsed once per isolate by
 * `config.<function>(env)` (each entry's `createApp` checks it before any route runs: a bad or missing
 * variable answers 503 in the service's envelope, naming the variable). The groups are declared in
 * src/platform/config/shared.ts and each service's config.ts; `.dev.vars.example` and the README's
 * configuration table are generated from this file (`npm run gen:config`).
 */
import { configReader, type VariableGroup } from '../src/platform/config/define.ts';
import { AUTH, DATABASE, ENCRYPTION, MAIL, OUTBOUND, QUEUE, QUEUE_RECEIVER } from '../src/platform/config/shared.ts';
import type { Env, ObjectBindings } from '../src/platform/env.ts';
import { INSIGHTS, insightsFunctionConfig } from '../src/insights/config.ts';
import { MARKETPLACE, marketplaceFunctionConfig } from '../src/marketplace/config.ts';
import { PIPELINE, pipelineFunctionConfig } from '../src/pipeline/config.ts';
import { WEBHOOKS } from '../src/webhooks/config.ts';

/** Every group, by the name the generated docs give it. */
export const GROUPS = {
  database: DATABASE,
  queue: QUEUE,
  'queue callbacks': QUEUE_RECEIVER,
  mail: MAIL,
  'user tokens': AUTH,
  'secrets at rest': ENCRYPTION,
  'outbound URLs': OUTBOUND,
  insights: INSIGHTS,
  marketplace: MARKETPLACE,
  pipeline: PIPELINE,
  webhooks: WEBHOOKS,
} as const satisfies Record<string, VariableGroup>;

export const config = {
  // the three public functions' readers live in their services (so a bundle carries no other service's config)
  insights: insightsFunctionConfig,
  marketplace: marketplaceFunctionConfig,
  pipeline: pipelineFunctionConfig,
  delivery: configReader(
    DATABASE,
    QUEUE,
    QUEUE_RECEIVER,
    MAIL,
    ENCRYPTION,
    OUTBOUND,
    INSIGHTS,
    MARKETPLACE,
    PIPELINE,
    WEBHOOKS,
  ),
} as const;

export type FunctionName = keyof typeof config;

type Declared = { [G in keyof typeof GROUPS]: keyof (typeof GROUPS)[G] }[keyof typeof GROUPS];
/** Env (the raw bindings) names exactly the declared variables: a compile error otherwise. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const ENV_MATCHES_DECLARATIONS: Exactly<Exclude<keyof Env, keyof ObjectBindings>, Declared> = true;
