/**
 * The zod schemas of the insights routes' inputs that are not request bodies: path segments (checked by
 * `check()` with each route's own deps.dev-style message) and query strings (through `validate`/`parseWith`).
 * Request bodies are in their routers (routes-batch.ts, routes-findings.ts). openapi.ts builds the
 * OpenAPI document from these same objects, so the document says what the routes check.
 */
import * as z from 'zod';
import { HttpError } from '../platform/errors.ts';
import { SYSTEMS } from '../versions/index.ts';

/** `npm` -> `[Nn][Pp][Mm]`: a JSON-Schema pattern (no flags there) that accepts any case. */
export function anyCase(word: string): string {
  return [...word].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toUpperCase()}${ch.toLowerCase()}]` : ch)).join('');
}

export const systemParam = z
  .string()
  .regex(new RegExp(`^(?:${SYSTEMS.map(anyCase).join('|')})$`))
  .describe(`package system, any case: ${SYSTEMS.join(', ')}`);
export const nameParam = z
  .string()
  .min(1)
  .describe('package name, percent-encoded (`%40scope%2Fname`, Maven `group%3Aartifact`, Go module path with %2F)');
export const versionParam = z.string().min(1).describe('version as the registry spells it, percent-encoded');
export const projectIdParam = z
  .string()
  // owners and repositories of the three hosts are ASCII letters, digits, `_`, `.`, `-`
  .regex(/^[^/\s]+\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/)
  .describe('`github.com|gitlab.com|bitbucket.org/<owner>/<repo>`, any case, usually percent-encoded as one segment');
export const advisoryIdParam = z
  .string()
  // OSV's id form: a database prefix holding an upper-case letter (GHSA, CVE, PYSEC, openSUSE-SU, ...)
  // or `x_`, a `-`, and an entry id holding a digit (osv-schema's `id` and `prefix`)
  .regex(
    /^(?=.{3,120}$)(?:x_[A-Za-z0-9._:-]+|[A-Za-z]*[A-Z][A-Za-z0-9]*(?:-[A-Z]{1,2})?-[A-Za-z0-9._:-]*\d[A-Za-z0-9._:-]*)$/,
  )
  .describe('OSV id (GHSA-..., CVE-..., MAL-..., ...)');
export const purlParam = z
  .string()
  .regex(/^pkg:[A-Za-z][A-Za-z0-9.+-]*\/.+$/)
  .describe(
    'package URL, percent-encoded as one segment; with `@version` it names a version; qualifiers and ' +
      '`#subpath` accepted (only a foreign `repository_url` changes the answer); Go paths match ignoring case',
  );
export const chainIdParam = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/)
  .describe('OCI chain id `sha256:<64 lower-case hex>`');

/** Throws the route's own 400 when `value` does not pass `schema`. */
export function check(schema: z.ZodType, value: unknown, message: string): void {
  if (!schema.safeParse(value).success) throw new HttpError(400, message);
}

export const HASH_TYPES = ['MD5', 'SHA1', 'SHA256', 'SHA512'] as const;

/** Query's parameters (QueryRequest's fields in dotted proto JSON form; `hash_type` etc. are read too). */
export const queryQuery = z.object({
  'hash.type': z
    .string()
    .regex(new RegExp(`^(?:${HASH_TYPES.map(anyCase).join('|')})$`))
    .optional()
    .describe('MD5|SHA1|SHA256|SHA512 (any case); needs hash.value'),
  'hash.value': z.string().optional().describe('the digest, base64 (standard or URL alphabet)'),
  'versionKey.system': systemParam.optional(),
  'versionKey.name': nameParam.optional().describe('package name (needs versionKey.system)'),
  'versionKey.version': versionParam.optional().describe('version (needs versionKey.system and versionKey.name)'),
});

export const MAX_DEPENDENTS_PAGE = 1000;

/** `:dependents` beyond deps.dev: `?list=true` pages the dependents themselves. */
export const dependentsQuery = z.object({
  list: z.enum(['true', 'false']).optional().describe('true: add the dependents themselves, paged'),
  pageSize: z.coerce.number().int().min(1).max(MAX_DEPENDENTS_PAGE).default(100),
  pageToken: z.string().optional().describe('`nextPageToken` of the previous page'),
});

/** `:dependencies` beyond deps.dev (graph-include.ts): `?include=advisories,licenses`, either or both. */
export const dependenciesQuery = z.object({
  include: z
    .string()
    .regex(/^(?:advisories|licenses)(?:,(?:advisories|licenses))?$/)
    .optional()
    .describe(
      "add each node's `licenses` and/or `advisoryKeys` (and the graph's `advisories`): " +
        '`advisories`, `licenses` or `advisories,licenses`',
    ),
});
