/**
 * `npm start -- <function>...`: which functions start. A named function brings what it needs: every
 * function but `delivery` publishes to the queue, whose callbacks only `delivery` serves. None named
 * = all four. Seed files belong to the function whose demo data they hold (webhooks live on pipeline).
 */
import { FUNCTIONS, type FunctionName } from './config.ts';

export const NEEDS: Record<FunctionName, FunctionName[]> = {
  insights: ['delivery'],
  marketplace: ['delivery'],
  pipeline: ['delivery'],
  delivery: [],
};
export const SEED_OWNER: Record<string, FunctionName> = {
  insights: 'insights',
  marketplace: 'marketplace',
  pipeline: 'pipeline',
  webhooks: 'pipeline',
};

/** A mistake of the person starting the stack: `npm start` prints it as one line and exits 1. */
export class UsageError extends Error {}

export function chooseFunctions(names: string[]): FunctionName[] {
  const unknown = names.filter((n) => !(FUNCTIONS as readonly string[]).includes(n));
  if (unknown.length)
    throw new UsageError(`unknown function ${unknown.join(', ')}: choose among ${FUNCTIONS.join(', ')}`);
  if (!names.length) return [...FUNCTIONS];
  const chosen = new Set<FunctionName>();
  for (const n of names as FunctionName[]) for (const f of [n, ...NEEDS[n]]) chosen.add(f);
  return FUNCTIONS.filter((f) => chosen.has(f));
}
