/**
 * GetProject (`/v3/projects/{id}`) and GetProjectPackageVersions (`/v3/projects/{id}:packageversions`).
 * The id is `<host>/<owner>/<repo>`, usually sent percent-encoded as one segment; unencoded slashes
 * are accepted too. Ids are lower-cased (deps.dev's canonical form). Unknown projects are read
 * through from the host API (+ Scorecard).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseProjectId } from './ingest/projects.ts';
import { decodeSegment, rawSegments } from './paths.ts';
import { getProject, getProjectPackageVersions } from './queries.ts';
import { projects, readThrough, storedIf } from './read-through.ts';
import { jsonText } from './views.ts';
import { readContext } from './route-context.ts';
import { projectWarning } from './read-status.ts';
import { check, projectIdParam } from './schemas.ts';

export const projectRoutes = new Hono<AppEnv>();

projectRoutes.get('/:api{v3|v3alpha}/projects/*', async (c) => {
  let id = rawSegments(c.req.url).slice(2).map(decodeSegment).join('/');
  const packageVersions = id.endsWith(':packageversions');
  if (packageVersions) id = id.slice(0, -':packageversions'.length);
  id = id.toLowerCase();
  check(projectIdParam, id, `invalid project id "${id}" (want github.com|gitlab.com|bitbucket.org/<owner>/<repo>)`);
  if (!parseProjectId(id))
    throw new HttpError(400, `invalid project id "${id}" (want github.com|gitlab.com|bitbucket.org/<owner>/<repo>)`);
  const ctx = readContext(c);
  const read = packageVersions ? getProjectPackageVersions : getProject;
  const found = await readThrough(ctx, projects, id, async (k) => storedIf(await read(ctx.db, k)));
  if (found === null) throw new HttpError(404, `project ${id} not found`);
  const warning = packageVersions ? null : await projectWarning(ctx, [id]); // host or Scorecard data not read
  if (warning) c.header('Warning', warning);
  return jsonText(c, found.value);
});
