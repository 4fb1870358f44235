/**
 * A declared source repository that moved (tuf-js@1.0.0's packument names `github/tuf-js`, its
 * certificate `theupdateframework/tuf-js`) is recognised by asking GitHub, never by the bundle alone:
 * `GET {GITHUB_API_URL}/repos/<declared owner>/<name>` follows GitHub's redirect to where the repository
 * lives now, and the move is accepted only when that repository is the signed one (same `full_name`)
 * and has the same numeric id as the one the signature records (Fulcio's Source Repository Identifier,
 * or the signed provenance's GITHUB_REPOSITORY_ID). A repository deleted and re-created under the old
 * name has a new id and is not the signed one. Only GitHub has such redirects; other hosts never match.
 */
import * as z from 'zod';
import { upstreamUrl, type UpstreamEnv } from '../ingest/http.ts';
import { UpstreamNotFound } from '../ingest/types.ts';
import { fetchDoc } from '../ingest/upstream-doc.ts';
import { repositoryKey, type SignerIdentity } from './identity.ts';
import type { SameRepository } from './verify-npm.ts';

/** `GET /repos/{owner}/{repo}`: the parts read. */
const MovedRepo = z.looseObject({ id: z.union([z.number(), z.string()]).nullish(), full_name: z.string().nullish() });

export function githubMoves(env: UpstreamEnv): SameRepository {
  return async (declared: string, signed: SignerIdentity) => {
    const key = repositoryKey(declared);
    if (!key.startsWith('github.com/') || !/^\d+$/.test(signed.repositoryId)) return false;
    const [, owner, repo] = key.split('/');
    let r: z.output<typeof MovedRepo>;
    try {
      r = await fetchDoc(
        `${upstreamUrl(env, 'GITHUB_API_URL')}/repos/${encodeURIComponent(owner!)}/${encodeURIComponent(repo!)}`,
        MovedRepo,
        { headers: { 'user-agent': 'insights-service' } },
      );
    } catch (err) {
      if (err instanceof UpstreamNotFound) return false;
      throw err; // unreachable: the check is tried again later
    }
    return (
      String(r.id) === signed.repositoryId &&
      typeof r.full_name === 'string' &&
      repositoryKey(`https://github.com/${r.full_name}`) === repositoryKey(signed.repository)
    );
  };
}
