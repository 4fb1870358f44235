/**
 * Package URL (purl spec) -> package or version key, for `GET /v3alpha/purl/{purl}` and purlbatch. Types:
 * npm (`pkg:npm/%40scope/name`), pypi, cargo, maven (`namespace` = group), nuget, gem (RUBYGEMS),
 * golang (namespace/name = module path). Beyond deps.dev (which rejects them, its #299 / go-genproto #1222):
 * qualifiers (`?k=v&...`, keys lower-cased, values percent-decoded) and a subpath (`#...`) are accepted.
 * A qualifier names an artifact inside the version (Maven `type`/`classifier`, PyPI `file_name`, gem
 * `platform`) or where it was fetched from; a deps.dev Version is the whole version, so they do not change
 * the answer, except `repository_url` (purl-target.ts): a registry other than the one served is not this
 * package. The subpath names a file inside the package and is ignored.
 */
import { HttpError } from '../platform/errors.ts';
import type { System } from '../versions/index.ts';

const TYPES: Record<string, System> = {
  npm: 'NPM',
  pypi: 'PYPI',
  cargo: 'CARGO',
  maven: 'MAVEN',
  nuget: 'NUGET',
  gem: 'RUBYGEMS',
  golang: 'GO',
};

function dec(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new HttpError(400, `malformed percent-encoding in purl component "${s}"`);
  }
}

export interface Purl {
  system: System;
  name: string;
  version?: string;
  /** Present only when the purl has some. */
  qualifiers?: Record<string, string>;
  subpath?: string;
}

function parseQualifiers(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = pair.slice(0, eq).toLowerCase();
    if (eq <= 0 || !/^[a-z.\-_][a-z0-9.\-_]*$/.test(key)) throw new HttpError(400, `invalid purl qualifier "${pair}"`);
    if (key in out) throw new HttpError(400, `purl qualifier "${key}" given twice`);
    const value = dec(pair.slice(eq + 1));
    if (value) out[key] = value; // an empty value is the qualifier left out (purl spec)
  }
  return out;
}

export function parsePurl(purl: string): Purl {
  const hash = purl.indexOf('#');
  const subpath =
    hash < 0
      ? ''
      : purl
          .slice(hash + 1)
          .split('/')
          .filter((s) => s && s !== '.' && s !== '..')
          .map(dec)
          .join('/');
  const body = hash >= 0 ? purl.slice(0, hash) : purl;
  const question = body.indexOf('?');
  const qualifiers = question >= 0 ? parseQualifiers(body.slice(question + 1)) : {};
  const m = /^pkg:([a-zA-Z][a-zA-Z0-9.+-]*)\/+(.+)$/.exec(question >= 0 ? body.slice(0, question) : body);
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
  return {
    system,
    name,
    ...(version !== undefined ? { version } : {}),
    ...(Object.keys(qualifiers).length ? { qualifiers } : {}),
    ...(subpath ? { subpath } : {}),
  };
}
