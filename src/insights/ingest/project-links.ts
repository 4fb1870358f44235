/**
 * Links -> related projects, like deps.dev: a SOURCE_REPO or ISSUE_TRACKER link that points into a
 * repository on github.com, gitlab.com or bitbucket.org becomes a `<host>/<owner>/<repo>` project
 * key (lower-cased; `.git`, `git+`, `ssh://git@`, `git@host:` and sub-paths stripped), relation
 * provenance UNVERIFIED_METADATA. Links to other hosts map to no project. (deps.dev emits an entry
 * with an empty project id for those, e.g. log4j's Jira ISSUE_TRACKER; that is a bug and is not
 * reproduced: see docs/insights.md.)
 */
import type { Attestation, Link, SlsaProvenance } from './types.ts';

const HOSTS = ['github.com', 'gitlab.com', 'bitbucket.org'];

export function projectIdFromUrl(url: string): string | null {
  let s = url.trim();
  s = s.replace(/^git\+/, '');
  const scp = /^(?:[\w.-]+@)?([\w.-]+):(?!\/\/)(.+)$/.exec(s);
  if (scp && HOSTS.includes(scp[1]!.toLowerCase())) s = `https://${scp[1]}/${scp[2]}`;
  const shorthand = /^(github|gitlab|bitbucket):([\w.-]+\/[\w.-]+)$/.exec(s);
  if (shorthand)
    s = `https://${shorthand[1] === 'bitbucket' ? 'bitbucket.org' : `${shorthand[1]}.com`}/${shorthand[2]}`;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  if (!HOSTS.includes(host)) return null;
  const parts = u.pathname.split('/').filter(Boolean);
  if (parts.length < 2) return null;
  const owner = parts[0]!;
  const repo = parts[1]!.replace(/\.git$/i, '');
  if (!owner || !repo) return null;
  return `${host}/${owner}/${repo}`.toLowerCase();
}

export interface RelatedProject {
  projectId: string;
  relationType: 'SOURCE_REPO' | 'ISSUE_TRACKER';
  relationProvenance: string;
}

export function relatedProjectsFromLinks(links: readonly Link[]): RelatedProject[] {
  const out: RelatedProject[] = [];
  for (const l of links) {
    if (l.label !== 'SOURCE_REPO' && l.label !== 'ISSUE_TRACKER') continue;
    const id = projectIdFromUrl(l.url);
    if (!id || out.some((p) => p.projectId === id && p.relationType === l.label)) continue;
    out.push({ projectId: id, relationType: l.label, relationProvenance: 'UNVERIFIED_METADATA' });
  }
  return out;
}

export interface AttestedProject extends RelatedProject {
  slsaProvenances: SlsaProvenance[];
  attestations: Attestation[];
}

/**
 * Attestations -> related projects: each distinct source repository on a known host becomes a
 * SOURCE_REPO relation with provenance SLSA_ATTESTATION (any SLSA provenance names it) or
 * PYPI_PUBLISH_ATTESTATION (only PyPI publish attestations do), carrying the provenances and
 * attestations that name it (GetProjectPackageVersions serves these first).
 */
export function relatedProjectsFromAttestations(v: {
  slsaProvenances: readonly SlsaProvenance[];
  attestations: readonly Attestation[];
}): AttestedProject[] {
  const out = new Map<string, AttestedProject>();
  const entry = (repo: string) => {
    const id = projectIdFromUrl(repo);
    if (!id) return null;
    const found = out.get(id);
    if (found) return found;
    const e: AttestedProject = {
      projectId: id,
      relationType: 'SOURCE_REPO',
      relationProvenance: 'PYPI_PUBLISH_ATTESTATION',
      slsaProvenances: [],
      attestations: [],
    };
    out.set(id, e);
    return e;
  };
  for (const p of v.slsaProvenances) {
    const e = entry(p.sourceRepository);
    if (!e) continue;
    e.slsaProvenances.push(p);
    e.relationProvenance = 'SLSA_ATTESTATION';
  }
  for (const a of v.attestations) {
    const e = entry(a.sourceRepository);
    if (!e) continue;
    e.attestations.push(a);
    if (a.type.startsWith('https://slsa.dev/provenance/')) e.relationProvenance = 'SLSA_ATTESTATION';
  }
  return [...out.values()];
}
