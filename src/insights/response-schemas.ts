/**
 * The answers of the insights API as zod schemas, built from deps.dev's own messages (depsdev-messages.ts,
 * generated from the reference protos by tools/gen-depsdev-descriptors.ts): every message an rpc answers
 * with, down to the leaves, each field under its proto3 JSON name and type (64-bit integers as decimal
 * strings, Timestamps as RFC 3339 text, enums by name, `repeated` as arrays), every field optional as in
 * proto3, no field the proto lacks (strict objects). This service's own additions, which only an explicit
 * request parameter turns on, are separate schemas (`ext.*`, each added field described "beyond
 * deps.dev"). The bodies are built in SQL and TypeScript, not parsed through these; they exist so
 * openapi.ts can generate the 200 response schemas of the OpenAPI document, and so
 * test/http/insights/openapi.test.ts can hold real answers against the generated document and the
 * document against the protos field by field. Every schema is registered in RESPONSES under its
 * component name: the message's name without `deps_dev.` (`v3.Package`, `v3alpha.Findings.Version`).
 */
import * as z from 'zod';
import { PROTO_ENUMS, PROTO_MESSAGES } from './depsdev-messages.ts';

export const RESPONSES = z.registry<{ id: string; description?: string }>();

const INT64 = () =>
  z
    .string()
    .regex(/^-?\d+$/)
    .describe('64-bit integer as a decimal string (proto3 JSON)');
const SCALARS: Record<string, () => z.ZodType> = {
  string: () => z.string(),
  bool: () => z.boolean(),
  int32: () => z.number().int(),
  uint32: () => z.number().int().min(0),
  int64: INT64,
  uint64: INT64,
  double: () => z.number(),
  float: () => z.number(),
  bytes: () => z.string().describe('bytes, base64'),
  timestamp: () => z.string().describe('google.protobuf.Timestamp: RFC 3339'),
};

const built = new Map<string, z.ZodType>();

/** The schema of a proto type: a scalar, an enum (by its names) or a message (strict object, fields optional). */
export function protoType(type: string): z.ZodType {
  const scalar = SCALARS[type];
  if (scalar) return scalar();
  const done = built.get(type);
  if (done) return done;
  const values = PROTO_ENUMS[type];
  if (values) {
    const schema = z.enum(values as [string, ...string[]]);
    RESPONSES.add(schema, { id: type });
    built.set(type, schema);
    return schema;
  }
  return protoMessage(type, {});
}

function fieldSchema(field: readonly string[]): z.ZodType {
  const [, type, ...flags] = field as [string, string, ...string[]];
  const item = protoType(type);
  return flags.includes('repeated') ? z.array(item) : item;
}

/**
 * A message's schema; with `extra` (this service's additions, each described), registered as
 * `ext.<message>` instead, the proto's own fields unchanged and the additions after them.
 */
function protoMessage(type: string, extra: Record<string, z.ZodType>, replace: Record<string, z.ZodType> = {}) {
  const fields = PROTO_MESSAGES[type];
  if (!fields) throw new Error(`no message ${type} in depsdev-messages.ts`);
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) shape[f[0]!] = (replace[f[0]!] ?? fieldSchema(f)).optional();
  for (const [name, s] of Object.entries(extra)) shape[name] = s.optional();
  const schema = z.strictObject(shape);
  const extended = Object.keys(extra).length > 0 || Object.keys(replace).length > 0;
  RESPONSES.add(schema, { id: extended ? `ext.${type}` : type });
  if (!extended) built.set(type, schema);
  return schema;
}

const beyond = (s: z.ZodType, when: string) => s.describe(`beyond deps.dev: with ${when}`);

/** GetDependencies with `?include=advisories,licenses` (graph-include.ts): per node and for the graph. */
function dependenciesWithInclude(api: 'v3' | 'v3alpha') {
  const node = protoMessage(`${api}.Dependencies.Node`, {
    licenses: beyond(z.array(z.string()), '?include=licenses'),
    advisoryKeys: beyond(z.array(protoType(`${api}.AdvisoryKey`)), '?include=advisories'),
  });
  return protoMessage(
    `${api}.Dependencies`,
    { advisories: beyond(z.array(protoType(`${api}.Advisory`)), '?include=advisories') },
    { nodes: z.array(node) },
  );
}

/** GetDependents with `?list=true` (dependents.ts): the dependents themselves, paged. */
const dependentsWithList = () =>
  protoMessage('v3alpha.Dependents', {
    dependents: beyond(
      z.array(
        z.strictObject({ versionKey: protoType('v3alpha.VersionKey'), relation: z.enum(['DIRECT', 'INDIRECT']) }),
      ),
      '?list=true',
    ),
    nextPageToken: beyond(z.string(), '?list=true; "" on the last page'),
  });

// every message and enum of both protos is a component, whether or not an answer refers to it directly
for (const type of [...Object.keys(PROTO_ENUMS), ...Object.keys(PROTO_MESSAGES)]) protoType(type);

const both = (message: string) => ({ v3: protoType(`v3.${message}`), v3alpha: protoType(`v3alpha.${message}`) });
const alpha = (message: string) => protoType(`v3alpha.${message}`);
const OpenApi = z.looseObject({ openapi: z.literal('3.1.0'), paths: z.looseObject({}) });
RESPONSES.add(OpenApi, { id: 'OpenAPI' });

/**
 * The 200 answer of each operation, by operation summary (v3 / v3alpha where both serve it): the rpc's
 * message; GetDependencies and GetDependents answer their `ext.` schema, which is the message itself
 * unless the request asks for the additions.
 */
export const RESPONSE_OF = {
  GetPackage: both('Package'),
  GetVersion: both('Version'),
  GetRequirements: both('Requirements'),
  GetDependencies: { v3: dependenciesWithInclude('v3'), v3alpha: dependenciesWithInclude('v3alpha') },
  GetProject: both('Project'),
  GetProjectPackageVersions: both('ProjectPackageVersions'),
  GetAdvisory: both('Advisory'),
  Query: both('QueryResult'),
  GetDependents: dependentsWithList(),
  GetCapabilities: alpha('Capabilities'),
  Findings: alpha('Findings'),
  GetSimilarlyNamedPackages: alpha('SimilarlyNamedPackages'),
  PurlLookup: alpha('PurlLookupResult'),
  QueryContainerImages: alpha('QueryContainerImagesResult'),
  GetVersionBatch: alpha('VersionBatch'),
  PurlLookupBatch: alpha('PurlLookupBatchResult'),
  GetProjectBatch: alpha('ProjectBatch'),
  FindingsBatch: alpha('FindingsBatch'),
  OpenAPI: OpenApi,
} as const;
