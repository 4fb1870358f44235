/**
 * GetDependencies (`...versions/{version}:dependencies`). Owned by the resolver work (src/resolve);
 * until it lands, every system answers 404 like deps.dev does for systems without graphs.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';

export interface VersionKeyInput {
  system: string;
  name: string;
  version: string;
}

export async function getDependencies(_c: Context<AppEnv>, key: VersionKeyInput): Promise<Response> {
  throw new HttpError(404, `dependency graphs are not available for ${key.system} ${key.name}@${key.version}`);
}
