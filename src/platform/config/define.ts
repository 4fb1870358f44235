/**
 * Typed configuration: every variable a function reads is declared once, as a `Variable` (a zod schema
 * over the raw string, the default in the form it is written in env, and a one-line meaning), in a
 * named `VariableGroup`; a service's or a function's configuration is a set of groups. `configReader`
 * parses a set of groups from an env object once per object (memoised on its identity, which on Workers
 * is once per isolate) into typed values, so code reads numbers, lists and flags, never raw strings.
 *
 * Rules: a value is trimmed and an empty string counts as unset; an unset variable takes its default
 * (parsed by the same schema), else is `undefined` when optional, else is an error. A bad value is a
 * `ConfigError` that names the variable and what it must be, never the value (it may be a secret).
 */
import type { z } from 'zod';

export interface Variable<T = unknown> {
  /** Parses the trimmed, non-empty raw string. Its error messages never quote the value. */
  schema: z.ZodType<T, string>;
  /** One line: what the variable means. */
  meaning: string;
  /** Raw (env-form) value used when the variable is unset. */
  default?: string;
  /** Unset and without default is allowed (the value is then `undefined`). */
  optional?: boolean;
  /** A credential: set with `wrangler secret put`, never logged or echoed. */
  secret?: boolean;
  /**
   * A rule across variables, given the parsed value and a reader of other variables' raw values: a
   * problem (what must hold, never a value) makes the variable a ConfigError. E.g. a local-development
   * switch that production refuses.
   */
  check?(value: T, raw: (name: string) => string | undefined): string | undefined;
}

export type VariableGroup = Record<string, Variable>;

/** The typed values of a group (optional variables without default may be undefined). */
export type ConfigOf<G extends VariableGroup> = {
  readonly [K in keyof G]: G[K] extends Variable<infer T>
    ? G[K]['default'] extends string
      ? T
      : G[K]['optional'] extends true
        ? T | undefined
        : T
    : never;
};

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
export type ConfigOfGroups<Gs extends readonly VariableGroup[]> = ConfigOf<
  UnionToIntersection<Gs[number]> & VariableGroup
>;

/** Declares a variable (identity helper, for inference). */
export function variable<T>(v: Variable<T>): Variable<T> {
  return v;
}

/** A variable is missing or malformed. The message names it and never contains its value. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

function rawValue(env: object, name: string): string | undefined {
  const v = (env as Record<string, unknown>)[name];
  if (v === undefined || v === null) return undefined;
  const s = (typeof v === 'string' ? v : String(v)).trim();
  return s === '' ? undefined : s;
}

/** Parses one variable of `env`; throws ConfigError. */
export function parseVariable<T>(env: object, name: string, v: Variable<T>): T | undefined {
  const raw = rawValue(env, name) ?? v.default;
  if (raw === undefined) {
    if (v.optional) return undefined;
    throw new ConfigError(name, `is required (${v.meaning})`);
  }
  const r = v.schema.safeParse(raw);
  if (!r.success) throw new ConfigError(name, r.error.issues[0]?.message ?? 'is malformed');
  const problem = v.check?.(r.data, (other) => rawValue(env, other));
  if (problem) throw new ConfigError(name, problem);
  return r.data;
}

/** Parses every variable of `groups` from `env` (first bad variable wins, in declaration order). */
export function parseGroups<Gs extends readonly VariableGroup[]>(env: object, groups: Gs): ConfigOfGroups<Gs> {
  const out: Record<string, unknown> = {};
  for (const g of groups) for (const [name, v] of Object.entries(g)) out[name] = parseVariable(env, name, v);
  return Object.freeze(out) as ConfigOfGroups<Gs>;
}

export interface ConfigReader<C> {
  (env: object): C;
  /** The groups this reader parses, in order (for generated docs and checks). */
  readonly groups: readonly VariableGroup[];
}

/** A memoised parser of `groups`: one parse per env object; a failure is remembered and thrown again. */
export function configReader<const Gs extends readonly VariableGroup[]>(
  ...groups: Gs
): ConfigReader<ConfigOfGroups<Gs>> {
  const memo = new WeakMap<object, { value?: ConfigOfGroups<Gs>; error?: ConfigError }>();
  const read = (env: object): ConfigOfGroups<Gs> => {
    let m = memo.get(env);
    if (!m) {
      try {
        m = { value: parseGroups(env, groups) };
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        m = { error: err };
      }
      memo.set(env, m);
    }
    if (m.error) throw m.error;
    return m.value!;
  };
  return Object.assign(read, { groups });
}
