/**
 * GetPackage of a package the store lacks (its first read): answered from the fetched document
 * (package-answer.ts), and the package stored after the answer, with its OSV records and stored answers
 * (read-through.ts storeIngested), as the Worker's `waitUntil` work. An answer needs one fetch and one
 * parse; at 2,347 versions (@types/node) the store behind it took seconds. Reads of the package in this
 * isolate wait for that store (stores-in-flight.ts), so it is fetched once. If the store fails it is
 * logged, and the next read reads the package through again. A partial package (an adapter that could
 * not read every version) is never answered: it is stored and read as before.
 */
import { warnLimited } from '../platform/log-limit.ts';
import type { Stored } from './read-through.ts';
import { ingestShared, type PackageKey } from './read-through.ts';
import type { ReadContext } from './read-context.ts';
import { packageAnswer } from './package-answer.ts';
import { getPackage } from './queries.ts';

export async function firstPackageRead(
  ctx: ReadContext,
  key: PackageKey,
  alpha: boolean,
): Promise<Stored<string | null> | null> {
  const { pkg, rows } = await ingestShared(ctx, key.system, key.name);
  if (pkg === null) return null;
  if (pkg.partial) {
    await rows; // a partial package is stored as such (and not served, as before)
    const found = await getPackage(ctx.db, key.system, pkg.name, alpha);
    return found.fetched === null ? null : { value: found.body };
  }
  ctx.defer(
    rows.catch((err) =>
      warnLimited(
        'insights: package not stored after its first read',
        `${key.system} ${pkg.name}: ${(err as Error).message}`,
      ),
    ),
  );
  return { value: packageAnswer(pkg, alpha) };
}
