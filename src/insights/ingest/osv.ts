/**
 * OSV adapter and evaluation. Fetch: `GET {OSV_API_URL}/v1/vulns/{id}` for one record and
 * `POST {OSV_API_URL}/v1/query {package:{name, ecosystem}}` (paged by `next_page_token`) for a
 * package's records; bulk: `GET {OSV_BULK_URL}/{ecosystem}/all.zip` (one `<id>.json` per record,
 * read by zip.ts). Advisory fields follow deps.dev: url = https://osv.dev/vulnerability/{id},
 * title = summary, aliases, cvss3Vector = the CVSS_V3 severity verbatim, cvss3Score = its base
 * score (0 and "" without one).
 *
 * Affected versions follow the OSV schema's evaluation (docs/schema.md "Evaluation"): an affected[]
 * entry matches the package (ecosystem <-> system, names compared canonically); a version is
 * affected when it is listed in `versions`, or when, in an ECOSYSTEM/SEMVER range with events
 * sorted by version ("0" lowest), the last event at or below it is `introduced` (`fixed` and
 * `limit` exclude their own version, `last_affected` includes it). GIT ranges are not evaluated.
 */
import { canon, compare, type System } from '../../versions/index.ts';
import { canonicalPackageName } from '../../versions/names/index.ts';
import { cvss3BaseScore } from './cvss.ts';
import { fetchJson, fetchUpstream, upstreamUrl, type UpstreamEnv } from './http.ts';
import { readZipEntry, zipEntries } from './zip.ts';

export const ECOSYSTEMS: Record<System, string> = {
  NPM: 'npm', PYPI: 'PyPI', MAVEN: 'Maven', GO: 'Go', CARGO: 'crates.io', NUGET: 'NuGet', RUBYGEMS: 'RubyGems',
};
const SYSTEM_OF = new Map(Object.entries(ECOSYSTEMS).map(([s, e]) => [e, s as System]));

export type Osv = Record<string, any>;

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

export async function fetchOsv(env: UpstreamEnv, id: string): Promise<Osv> {
  return fetchJson(`${upstreamUrl(env, 'OSV_API_URL')}/v1/vulns/${encodeURIComponent(id)}`);
}

export async function fetchOsvForPackage(env: UpstreamEnv, system: System, name: string): Promise<Osv[]> {
  const out: Osv[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 20; page++) {
    const body = { package: { name, ecosystem: ECOSYSTEMS[system] }, ...(pageToken ? { page_token: pageToken } : {}) };
    const res = await fetchJson(`${upstreamUrl(env, 'OSV_API_URL')}/v1/query`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    out.push(...(res.vulns ?? []));
    pageToken = res.next_page_token;
    if (!pageToken) break;
  }
  return out;
}

export function advisoryFromOsv(osv: Osv): AdvisoryRow {
  const sev = [...(osv.severity ?? []), ...(osv.affected ?? []).flatMap((a: any) => a.severity ?? [])];
  const v3 = sev.find((s: any) => s?.type === 'CVSS_V3' && typeof s.score === 'string');
  const vector = v3 ? String(v3.score) : '';
  return {
    id: String(osv.id),
    url: `https://osv.dev/vulnerability/${osv.id}`,
    title: typeof osv.summary === 'string' ? osv.summary : '',
    aliases: Array.isArray(osv.aliases) ? osv.aliases.map(String) : [],
    cvss3Score: vector ? cvss3BaseScore(vector) ?? 0 : 0,
    cvss3Vector: vector,
    modified: typeof osv.modified === 'string' ? osv.modified : null,
    osv,
  };
}

/** The packages an OSV record names, as (system, canonical name). */
export function osvPackages(osv: Osv): { system: System; name: string }[] {
  const out: { system: System; name: string }[] = [];
  for (const a of osv.affected ?? []) {
    const system = SYSTEM_OF.get(String(a?.package?.ecosystem ?? '').split(':')[0]!);
    if (!system || typeof a.package.name !== 'string') continue;
    const name = canonicalPackageName(system, a.package.name);
    if (!out.some((p) => p.system === system && p.name === name)) out.push({ system, name });
  }
  return out;
}

function cmpEvent(system: System, a: string, b: string): number {
  if (a === b) return 0;
  if (a === '0') return -1;
  if (b === '0') return 1;
  return compare(system, a, b);
}

/** Is `version` (canonical) of (system, name) affected by the record? */
export function isAffected(osv: Osv, system: System, name: string, version: string): boolean {
  for (const a of osv.affected ?? []) {
    const eco = String(a?.package?.ecosystem ?? '').split(':')[0];
    if (SYSTEM_OF.get(eco!) !== system || canonicalPackageName(system, String(a.package.name ?? '')) !== name) continue;
    if ((a.versions ?? []).some((v: string) => v === version || canon(system, v) === version)) return true;
    for (const r of a.ranges ?? []) {
      if (r.type !== 'ECOSYSTEM' && r.type !== 'SEMVER') continue;
      const events = (r.events ?? []).map((e: Record<string, string>) => {
        const [kind, v] = Object.entries(e)[0] ?? ['', ''];
        return { kind, v: String(v) };
      }).filter((e: { kind: string }) => ['introduced', 'fixed', 'last_affected', 'limit'].includes(e.kind));
      events.sort((x: { v: string }, y: { v: string }) => cmpEvent(system, x.v, y.v));
      let affected = false;
      for (const e of events) {
        const c = cmpEvent(system, version, e.v);
        if (e.kind === 'introduced' && c >= 0) affected = true;
        else if ((e.kind === 'fixed' || e.kind === 'limit') && c >= 0) affected = false;
        else if (e.kind === 'last_affected' && c > 0) affected = false;
      }
      if (affected) return true;
    }
  }
  return false;
}

/** An OSV ecosystem name from a system name or an ecosystem in any case (`npm`, `pypi`, `CARGO`, `crates.io`); others verbatim. */
export function osvEcosystem(arg: string): string {
  const lower = arg.toLowerCase();
  for (const [system, eco] of Object.entries(ECOSYSTEMS)) if (lower === system.toLowerCase() || lower === eco.toLowerCase()) return eco;
  return arg;
}

/** The whole `all.zip` of an ecosystem (held in memory: the CLI import's use). */
export async function fetchOsvBulk(env: UpstreamEnv, ecosystem: string): Promise<Uint8Array> {
  const res = await fetchUpstream(`${upstreamUrl(env, 'OSV_BULK_URL')}/${encodeURIComponent(ecosystem)}/all.zip`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The records of an all.zip, in archive order; entries that are not `.json` OSV objects with an id are reported as skipped. */
export async function* osvRecordsFromZip(zip: Uint8Array): AsyncGenerator<{ record: Osv } | { skipped: string; reason: string }> {
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
    if (!record || typeof record !== 'object' || typeof (record as Osv).id !== 'string') yield { skipped: e.name, reason: 'no OSV id' };
    else yield { record: record as Osv };
  }
}
