/**
 * OSV adapter. Fetch: `GET {OSV_API_URL}/v1/vulns/{id}` for one record and
 * `POST {OSV_API_URL}/v1/query {package:{name, ecosystem}}` (paged by `next_page_token`) for a
 * package's records; bulk: `GET {OSV_BULK_URL}/{ecosystem}/all.zip` (one `<id>.json` per record,
 * read by zip.ts). Advisory fields follow deps.dev: url = https://osv.dev/vulnerability/{id},
 * title = summary, aliases, cvss3Vector = the CVSS_V3 severity verbatim, cvss3Score = its base
 * score (0 and "" without one). Which versions a record affects is decided by osv-affected.ts (pure).
 */
import * as z from 'zod';
import type { System } from '../../versions/index.ts';
import { ECOSYSTEMS, type Osv } from '../osv-affected.ts';
import { insightsConfig } from '../config.ts';
import { cvss3BaseScore } from './cvss.ts';
import { fetchUpstream, upstreamUrl, type UpstreamEnv } from './http.ts';
import { fetchDoc, parseUpstream } from './upstream-doc.ts';
import { readZipEntry, zipEntries } from './zip.ts';

// The evaluation of a record lives in osv-affected.ts (pure); these names stay importable from here.
export { ECOSYSTEMS, isAffected, osvPackages, type Osv } from '../osv-affected.ts';

export interface AdvisoryRow {
  id: string;
  url: string;
  title: string;
  aliases: string[];
  cvss3Score: number;
  cvss3Vector: string;
  modified: string | null;
  osv: Osv;
}

/**
 * An OSV record: the parts read (osv-affected.ts, advisoryFromOsv), as the OSV schema requires them
 * (an id; a severity's type and score, a range's type and events, a package's ecosystem and name are
 * strings); loose objects, since the record is stored whole; null where a field is absent.
 */
const text = z.string().nullish();
const Severity = z.array(z.looseObject({ type: z.string(), score: z.string() })).nullish();
const Affected = z.looseObject({
  package: z.looseObject({ ecosystem: z.string(), name: z.string() }).nullish(),
  severity: Severity,
  versions: z.array(z.string()).nullish(),
  ranges: z
    .array(
      z.looseObject({
        type: z.string(),
        events: z.array(z.looseObject({ introduced: text, fixed: text, last_affected: text, limit: text })),
      }),
    )
    .nullish(),
});
export const OsvRecord = z.looseObject({
  id: z.string(),
  summary: text,
  modified: text,
  aliases: z.array(z.string()).nullish(),
  severity: Severity,
  affected: z.array(Affected).nullish(),
});
/** `POST /v1/query`: a page of records. */
export const OsvQueryAnswer = z.looseObject({ vulns: z.array(OsvRecord).nullish(), next_page_token: text });

/** Each OSV request's own deadline (INSIGHTS_OSV_TIMEOUT_MS). */
const osvSignal = (env: UpstreamEnv) => AbortSignal.timeout(insightsConfig(env).INSIGHTS_OSV_TIMEOUT_MS);

export async function fetchOsv(env: UpstreamEnv, id: string): Promise<Osv> {
  return fetchDoc(`${upstreamUrl(env, 'OSV_API_URL')}/v1/vulns/${encodeURIComponent(id)}`, OsvRecord, {
    signal: osvSignal(env),
  });
}

export async function fetchOsvForPackage(env: UpstreamEnv, system: System, name: string): Promise<Osv[]> {
  const out: Osv[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 20; page++) {
    const body = { package: { name, ecosystem: ECOSYSTEMS[system] }, ...(pageToken ? { page_token: pageToken } : {}) };
    const res = await fetchDoc(`${upstreamUrl(env, 'OSV_API_URL')}/v1/query`, OsvQueryAnswer, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
      signal: osvSignal(env),
    });
    out.push(...(res.vulns ?? []));
    pageToken = res.next_page_token ?? undefined;
    if (!pageToken) break;
  }
  return out;
}

export function advisoryFromOsv(osv: Osv): AdvisoryRow {
  const sev = [...(osv.severity ?? []), ...(osv.affected ?? []).flatMap((a) => a.severity ?? [])];
  const v3 = sev.find((s) => s?.type === 'CVSS_V3' && typeof s.score === 'string');
  const vector = v3 ? String(v3.score) : '';
  return {
    id: String(osv.id),
    url: `https://osv.dev/vulnerability/${osv.id}`,
    title: typeof osv.summary === 'string' ? osv.summary : '',
    aliases: Array.isArray(osv.aliases) ? osv.aliases.map(String) : [],
    cvss3Score: vector ? (cvss3BaseScore(vector) ?? 0) : 0,
    cvss3Vector: vector,
    modified: typeof osv.modified === 'string' ? osv.modified : null,
    osv,
  };
}

/** An OSV ecosystem name from a system name or an ecosystem in any case (`npm`, `pypi`, `CARGO`, `crates.io`); others verbatim. */
export function osvEcosystem(arg: string): string {
  const lower = arg.toLowerCase();
  for (const [system, eco] of Object.entries(ECOSYSTEMS))
    if (lower === system.toLowerCase() || lower === eco.toLowerCase()) return eco;
  return arg;
}

/** The whole `all.zip` of an ecosystem (held in memory: the CLI import's use). */
export async function fetchOsvBulk(env: UpstreamEnv, ecosystem: string): Promise<Uint8Array> {
  const res = await fetchUpstream(`${upstreamUrl(env, 'OSV_BULK_URL')}/${encodeURIComponent(ecosystem)}/all.zip`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The records of an all.zip, in archive order; entries that are not `.json` OSV records (OsvRecord) are reported as skipped. */
export async function* osvRecordsFromZip(
  zip: Uint8Array,
): AsyncGenerator<{ record: Osv } | { skipped: string; reason: string }> {
  const decoder = new TextDecoder();
  for (const e of zipEntries(zip)) {
    if (e.name.endsWith('/')) continue;
    if (!e.name.endsWith('.json')) {
      yield { skipped: e.name, reason: 'not a .json entry' };
      continue;
    }
    let record: unknown;
    try {
      record = JSON.parse(decoder.decode(await readZipEntry(zip, e)));
    } catch (err) {
      yield { skipped: e.name, reason: (err as Error).message };
      continue;
    }
    if (!record || typeof record !== 'object' || typeof (record as Osv).id !== 'string') {
      yield { skipped: e.name, reason: 'no OSV id' };
      continue;
    }
    let parsed: Osv;
    try {
      parsed = parseUpstream(OsvRecord, record, 'the record');
    } catch (err) {
      yield { skipped: e.name, reason: (err as Error).message };
      continue;
    }
    yield { record: parsed };
  }
}
