/**
 * Links -> related projects, like deps.dev: a SOURCE_REPO or ISSUE_TRACKER link that points into a
 * repository on github.com, gitlab.com or bitbucket.org becomes a `<host>/<owner>/<repo>` project
 * key (lower-cased; `.git`, `git+`, `ssh://git@`, `git@host:` and sub-paths stripped), relation
 * provenance UNVERIFIED_METADATA. Links to other hosts map to no project. (deps.dev emits an entry
 * with an empty project id for those, e.g. log4j's Jira ISSUE_TRACKER; that is a bug and is not
 * reproduced: see docs/insights.md.)
 */
import type { Link } from './types.ts';

const HOSTS = ['github.com', 'gitlab.com', 'bitbucket.org'];

export function projectIdFromUrl(url: string): string | null {
  let s = url.trim();
  s = s.replace(/^git\+/, '');
  const scp = /^(?:[\w.-]+@)?([\w.-]+):(?!\/\/)(.+)$/.exec(s);
  if (scp && HOSTS.includes(scp[1]!.toLowerCase())) s = `https://${scp[1]}/${scp[2]}`;
  const shorthand = /^(github|gitlab|bitbucket):([\w.-]+\/[\w.-]+)$/.exec(s);
  if (shorthand) s = `https://${shorthand[1] === 'bitbucket' ? 'bitbucket.org' : `${shorthand[1]}.com`}/${shorthand[2]}`;
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
