/**
 * NuGet: the catalog, `GET {NUGET_CATALOG_URL}` (`catalog0/index.json`), pages after a commit timestamp.
 * The index lists pages with their newest `commitTimeStamp`; each page lists leaves `{@type:
 * nuget:PackageDetails | nuget:PackageDelete, nuget:id, nuget:version, commitTimeStamp}`. The cursor is
 * the newest commit timestamp processed; a read takes the leaves after it from the oldest page that has
 * any (one page per read, `more` while later pages exist). Timestamps carry up to 7 fraction digits and
 * are compared as text once padded. Ids are normalised as the store keeps them (lower case); a `PackageDelete`
 * removes one version, and the refresh stores what the registry still has (the package is removed only
 * when the registry has none of it left).
 */
import { normalizeNugetId } from '../../versions/names/index.ts';
import * as z from 'zod';
import { UpstreamError } from '../ingest/types.ts';
import { fetchDoc } from '../ingest/upstream-doc.ts';
import { insightsConfig } from '../config.ts';
import type { Feed, FeedChange } from './types.ts';

/** The catalog index and a page: the parts read (a timestamp's spelling is checked by commitTime). */
export const CatalogIndex = z.looseObject({
  commitTimeStamp: z.string(),
  items: z.array(z.looseObject({ '@id': z.string(), commitTimeStamp: z.string() })).nullish(),
});
export const CatalogPage = z.looseObject({
  items: z
    .array(z.looseObject({ '@type': z.string().nullish(), 'nuget:id': z.string(), commitTimeStamp: z.string() }))
    .nullish(),
});

/** A commit timestamp in one spelling (7 fraction digits, `Z`), so text order is time order. */
export function commitTime(t: unknown): string {
  const m = typeof t === 'string' ? /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,7}))?(Z|\+00:00)?$/.exec(t) : null;
  if (!m) throw new UpstreamError(`catalog: malformed commitTimeStamp`);
  return `${m[1]}.${(m[2] ?? '').padEnd(7, '0')}Z`;
}

export const nugetFeed: Feed = {
  registry: 'nuget',
  system: 'NUGET',
  async start(env) {
    return commitTime((await fetchDoc(insightsConfig(env).NUGET_CATALOG_URL, CatalogIndex)).commitTimeStamp);
  },
  async read(env, cursor) {
    const index = await fetchDoc(insightsConfig(env).NUGET_CATALOG_URL, CatalogIndex);
    const pages = (index.items ?? [])
      .map((p) => ({ url: p['@id'], at: commitTime(p.commitTimeStamp) }))
      .filter((p) => p.at > cursor)
      .sort((a, b) => (a.at < b.at ? -1 : 1));
    if (pages.length === 0) return { changes: [], cursor, more: false };
    const page = await fetchDoc(pages[0]!.url, CatalogPage);
    const leaves = (page.items ?? [])
      .map((l) => ({ id: l['nuget:id'], type: l['@type'], at: commitTime(l.commitTimeStamp) }))
      .filter((l) => l.at > cursor)
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    const changes: FeedChange[] = [];
    for (const l of leaves) {
      const name = normalizeNugetId(l.id);
      changes.push(l.type === 'nuget:PackageDelete' ? { name, deleted: true } : { name });
    }
    return { changes, cursor: pages[0]!.at, more: pages.length > 1 };
  },
};
