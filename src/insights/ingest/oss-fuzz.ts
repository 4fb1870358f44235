/**
 * `Project.ossFuzz` from OSS-Fuzz's public data: a repository is mapped to the OSS-Fuzz project whose
 * `project.yaml` names it as `main_repo` ({OSS_FUZZ_PROJECTS_URL}/{project}/project.yaml), and the
 * project's latest coverage report ({OSS_FUZZ_COVERAGE_URL}/latest_report_info/{project}.json, then
 * the llvm-cov summary its `report_summary_path` names) gives `lineCount` / `lineCoverCount` (the
 * summary's `data[0].totals.lines` count and covered) and `date` (`report_date`, midnight UTC);
 * `configUrl` is the project's folder in google/oss-fuzz.
 * OSS-Fuzz keeps no index from repository to project, so the candidates are the repository's name and
 * its owner's (`curl/curl` -> `curl`, `madler/zlib` -> `zlib`), lower-cased; a candidate counts only when
 * its `main_repo` is the repository (host/owner/name, exactly). A project named otherwise is not found
 * (no ossFuzz), as is one without a coverage report. Upstream failures other than 404 are thrown.
 */
import { repositoryKey } from '../attestations/identity.ts';
import * as z from 'zod';
import { fetchText, upstreamUrl, type UpstreamEnv } from './http.ts';
import { UpstreamNotFound } from './types.ts';
import { fetchDoc } from './upstream-doc.ts';

export interface OssFuzzDetails {
  lineCount: number;
  lineCoverCount: number;
  date: string;
  configUrl: string;
}

export const OSS_FUZZ_CONFIG = 'https://github.com/google/oss-fuzz/tree/master/projects/';
const COVERAGE_BUCKET = 'gs://oss-fuzz-coverage/';

/** `latest_report_info/<project>.json` and the coverage summary it names: the parts read. */
export const ReportInfo = z.looseObject({
  report_summary_path: z.string().nullish(),
  report_date: z.string().nullish(),
});
const lineTotals = z.looseObject({ count: z.number().nullish(), covered: z.number().nullish() });
export const CoverageSummary = z.looseObject({
  data: z.array(z.looseObject({ totals: z.looseObject({ lines: lineTotals.nullish() }).nullish() })).nullish(),
});

/** `main_repo` of a project.yaml (a top-level scalar, quoted or not), '' when it has none. */
export function mainRepo(yaml: string): string {
  const m = /^main_repo:[ \t]*(?:"([^"]*)"|'([^']*)'|([^\s#]+))/m.exec(yaml);
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : '';
}

async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof UpstreamNotFound) return null;
    throw err;
  }
}

/** The OSS-Fuzz project of a repository (`host/owner/name`), null when none names it. */
export async function ossFuzzProject(env: UpstreamEnv, repository: string): Promise<string | null> {
  const key = repositoryKey(`https://${repository}`);
  const [, owner, name] = key.split('/');
  if (!owner || !name) return null;
  const base = upstreamUrl(env, 'OSS_FUZZ_PROJECTS_URL');
  for (const candidate of [...new Set([name, owner])]) {
    if (!/^[a-z0-9][a-z0-9._-]*$/.test(candidate)) continue;
    const yaml = await orNull(fetchText(`${base}/${candidate}/project.yaml`));
    if (yaml !== null && repositoryKey(mainRepo(yaml)) === key) return candidate;
  }
  return null;
}

/** `YYYYMMDD` -> RFC 3339 at midnight UTC; null when it is not a date. */
function reportDate(d: unknown): string | null {
  const m = typeof d === 'string' ? /^(\d{4})(\d{2})(\d{2})$/.exec(d) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : null;
}

/** The coverage details of an OSS-Fuzz project, null when it has no (readable) latest report. */
export async function ossFuzzCoverage(env: UpstreamEnv, project: string): Promise<OssFuzzDetails | null> {
  const base = upstreamUrl(env, 'OSS_FUZZ_COVERAGE_URL');
  const info = await orNull(fetchDoc(`${base}/latest_report_info/${encodeURIComponent(project)}.json`, ReportInfo));
  const path = info?.report_summary_path ?? '';
  const date = reportDate(info?.report_date);
  if (!path.startsWith(COVERAGE_BUCKET) || !date) return null;
  const summary = await orNull(fetchDoc(`${base}/${path.slice(COVERAGE_BUCKET.length)}`, CoverageSummary));
  const { count, covered } = summary?.data?.[0]?.totals?.lines ?? {};
  if (!Number.isInteger(count) || !Number.isInteger(covered)) return null;
  return { lineCount: count!, lineCoverCount: covered!, date, configUrl: OSS_FUZZ_CONFIG + project };
}

/** OSS-Fuzz details of a repository (`host/owner/name`), null when OSS-Fuzz does not test it. */
export async function fetchOssFuzz(env: UpstreamEnv, repository: string): Promise<OssFuzzDetails | null> {
  const project = await ossFuzzProject(env, repository);
  return project ? ossFuzzCoverage(env, project) : null;
}
