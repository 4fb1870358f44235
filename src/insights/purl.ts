/**
 * Package URL (purl spec) -> package or version key, for `GET /v3alpha/purl/{purl}`. Types:
 * npm (`pkg:npm/%40scope/name`), pypi, cargo, maven (`namespace` = group), nuget, gem (RUBYGEMS),
 * golang (namespace/name = module path). Qualifiers and subpaths are rejected like deps.dev does.
 */
import { HttpError } from '../platform/errors.ts';
import type { System } from '../versions/index.ts';

const TYPES: Record<string, System> = { npm: 'NPM', pypi: 'PYPI', cargo: 'CARGO', maven: 'MAVEN', nuget: 'NUGET', gem: 'RUBYGEMS', golang: 'GO' };

function dec(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new HttpError(400, `malformed percent-encoding in purl component "${s}"`);
  }
}

export function parsePurl(purl: string): { system: System; name: string; version?: string } {
  if (/[?#]/.test(purl)) throw new HttpError(400, 'purl qualifiers and subpaths are not supported');
  const m = /^pkg:([a-zA-Z][a-zA-Z0-9.+-]*)\/+(.+)$/.exec(purl);
  if (!m) throw new HttpError(400, `invalid purl "${purl}"`);
  const system = TYPES[m[1]!.toLowerCase()];
  if (!system) throw new HttpError(400, `unsupported purl type "${m[1]}"`);
  let rest = m[2]!;
  let version: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at > 0) {
    version = dec(rest.slice(at + 1));
    rest = rest.slice(0, at);
    if (!version) throw new HttpError(400, 'purl version is empty');
  }
  const parts = rest.split('/').filter(Boolean).map(dec);
  if (parts.length === 0) throw new HttpError(400, 'purl has no name');
  const last = parts[parts.length - 1]!;
  const ns = parts.slice(0, -1);
  let name: string;
  if (system === 'MAVEN') {
    if (ns.length !== 1) throw new HttpError(400, 'maven purl needs pkg:maven/<group>/<artifact>');
    name = `${ns[0]}:${last}`;
  } else if (system === 'GO') name = parts.join('/');
  else if (system === 'NPM') {
    if (ns.length > 1) throw new HttpError(400, 'npm purl has at most one namespace');
    name = ns.length ? `${ns[0]}/${last}` : last;
  } else {
    if (ns.length) throw new HttpError(400, `${m[1]} purls have no namespace`);
    name = last;
  }
  return { system, name, ...(version !== undefined ? { version } : {}) };
}
