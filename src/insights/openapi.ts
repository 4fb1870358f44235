/**
 * The OpenAPI 3.1 document of the insights API (`GET /openapi.json`), generated: every operation below
 * names the Hono route that serves it and the zod schemas that route validates its path segments, query
 * and body with (schemas.ts, routes-batch.ts, routes-findings.ts); `z.toJSONSchema` turns them into
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect). test/http/insights/openapi.test.ts checks both ways
 * against the routers' registered routes. Each 200 refers to its answer's schema in `components.schemas`,
 * generated from response-schemas.ts (deps.dev's proto messages as zod, zod's registry -> JSON Schema,
 * sub-messages as `$ref`s); the tests hold real answers against them and them against the protos. Errors share `Error`. Every GET documents
 * its `ETag` / `If-None-Match` / 304 (routes.ts); no rate-limit headers are sent (docs/insights.md says why).
 */
import * as z from 'zod';
import { RESPONSE_OF, RESPONSES } from './response-schemas.ts';
import { findingsBatchBody } from './routes-findings.ts';
import { projectBatchBody, purlBatchBody, versionBatchBody } from './routes-batch.ts';
import {
  advisoryIdParam,
  chainIdParam,
  dependenciesQuery,
  dependentsQuery,
  nameParam,
  projectIdParam,
  purlParam,
  queryQuery,
  systemParam,
  versionParam,
} from './schemas.ts';

export interface Operation {
  method: 'get' | 'post';
  /** OpenAPI path template. */
  path: string;
  /** The Hono route (as in `app.routes`) that serves it. */
  route: string;
  operationId: string;
  summary: string;
  params?: Record<string, { schema: z.ZodType; example: string }>;
  query?: z.ZodObject;
  queryExample?: Record<string, string>;
  body?: z.ZodType;
  bodyExample?: unknown;
  /** The 200 answer (a schema registered in response-schemas.ts). */
  response: z.ZodType;
  /** Extra answers beyond 200/400/404 (e.g. GetDependencies' 503). */
  extra?: Record<string, object>;
}

const SYSTEMS_ROUTE = '/:api{v3|v3alpha}/systems/*';
const sys = { schema: systemParam, example: 'npm' };
const pkg = { system: sys, name: { schema: nameParam, example: 'lodash' } };
const ver = { ...pkg, version: { schema: versionParam, example: '4.17.21' } };
const pino = {
  system: sys,
  name: { schema: nameParam, example: 'pino' },
  version: { schema: versionParam, example: '6.14.0' },
};
const project = { projectId: { schema: projectIdParam, example: 'github.com/lodash/lodash' } };
const versionKey = { system: 'NPM', name: 'lodash', version: '4.17.21' };

/** The operations served under both /v3 and /v3alpha (v3alpha answers add its own fields). */
function both(api: 'v3' | 'v3alpha'): Operation[] {
  const p = `/${api}/systems/{system}/packages/{name}`;
  const ops: Omit<Operation, 'operationId' | 'response'>[] = [
    { method: 'get', path: p, route: SYSTEMS_ROUTE, summary: 'GetPackage', params: pkg },
    { method: 'get', path: `${p}/versions/{version}`, route: SYSTEMS_ROUTE, summary: 'GetVersion', params: ver },
    {
      method: 'get',
      path: `${p}/versions/{version}:requirements`,
      route: SYSTEMS_ROUTE,
      summary: 'GetRequirements',
      params: ver,
    },
    {
      method: 'get',
      path: `${p}/versions/{version}:dependencies`,
      route: SYSTEMS_ROUTE,
      summary: 'GetDependencies',
      params: pino,
      query: dependenciesQuery,
      queryExample: { include: 'advisories,licenses' },
      extra: {
        503: {
          description: 'the graph needs more upstream fetches than INSIGHTS_FETCH_LIMIT; retry later',
          headers: { 'Retry-After': { schema: { type: 'integer' } } },
        },
      },
    },
    {
      method: 'get',
      path: `/${api}/projects/{projectId}`,
      route: '/:api{v3|v3alpha}/projects/*',
      summary: 'GetProject',
      params: project,
    },
    {
      method: 'get',
      path: `/${api}/projects/{projectId}:packageversions`,
      route: '/:api{v3|v3alpha}/projects/*',
      summary: 'GetProjectPackageVersions',
      params: project,
    },
    {
      method: 'get',
      path: `/${api}/advisories/{advisoryId}`,
      route: '/:api{v3|v3alpha}/advisories/:id',
      summary: 'GetAdvisory',
      params: { advisoryId: { schema: advisoryIdParam, example: 'GHSA-jfh8-c2jp-5v3q' } },
    },
    {
      method: 'get',
      path: `/${api}/query`,
      route: '/:api{v3|v3alpha}/query',
      summary: 'Query',
      query: queryQuery,
      queryExample: { 'versionKey.system': 'NPM', 'versionKey.name': 'lodash', 'versionKey.version': '4.17.21' },
    },
  ];
  return ops.map((o) => {
    const r = RESPONSE_OF[o.summary as keyof typeof RESPONSE_OF];
    const response = 'v3' in r ? r[api] : r;
    return { ...o, operationId: `${api}.${o.summary}`, response };
  });
}

const batch = (path: string, summary: keyof typeof RESPONSE_OF, body: z.ZodType, request: object): Operation => ({
  method: 'post',
  path,
  route: path,
  operationId: `v3alpha.${summary}`,
  summary,
  body,
  bodyExample: { requests: [request] },
  response: RESPONSE_OF[summary] as z.ZodType,
});

const ALPHA_VERSION = '/v3alpha/systems/{system}/packages/{name}/versions/{version}';
const projectKey = { id: 'github.com/lodash/lodash' };

const ALPHA_ONLY: Operation[] = [
  {
    method: 'get',
    path: `${ALPHA_VERSION}:dependents`,
    route: SYSTEMS_ROUTE,
    operationId: 'v3alpha.GetDependents',
    summary: 'GetDependents (counts; ?list=true pages the dependents)',
    params: ver,
    query: dependentsQuery,
    response: RESPONSE_OF.GetDependents,
  },
  {
    method: 'get',
    path: `${ALPHA_VERSION}:capabilities`,
    route: SYSTEMS_ROUTE,
    operationId: 'v3alpha.GetCapabilities',
    summary: 'GetCapabilities (Go; import-based, see docs/insights.md)',
    params: {
      system: { schema: systemParam, example: 'go' },
      name: { schema: nameParam, example: 'example.com/capdemo' },
      version: { schema: versionParam, example: 'v1.0.0' },
    },
    response: RESPONSE_OF.GetCapabilities,
  },
  {
    method: 'get',
    path: `${ALPHA_VERSION}:findings`,
    route: SYSTEMS_ROUTE,
    operationId: 'v3alpha.GetVersionFindings',
    summary: 'Findings of a version',
    params: ver,
    response: RESPONSE_OF.Findings,
  },
  {
    method: 'get',
    path: '/v3alpha/systems/{system}/packages/{name}:findings',
    route: SYSTEMS_ROUTE,
    operationId: 'v3alpha.GetPackageFindings',
    summary: 'Findings of a package',
    params: pkg,
    response: RESPONSE_OF.Findings,
  },
  {
    method: 'get',
    path: '/v3alpha/systems/{system}/packages/{name}:similarlyNamedPackages',
    route: SYSTEMS_ROUTE,
    operationId: 'v3alpha.GetSimilarlyNamedPackages',
    summary: 'GetSimilarlyNamedPackages',
    params: pkg,
    response: RESPONSE_OF.GetSimilarlyNamedPackages,
  },
  {
    method: 'get',
    path: '/v3alpha/purl/{purl}',
    route: '/v3alpha/purl/*',
    operationId: 'v3alpha.PurlLookup',
    summary: 'PurlLookup',
    params: { purl: { schema: purlParam, example: 'pkg:npm/lodash@4.17.21' } },
    response: RESPONSE_OF.PurlLookup,
  },
  {
    method: 'get',
    path: '/v3alpha/querycontainerimages/{chainId}',
    route: '/v3alpha/querycontainerimages/*',
    operationId: 'v3alpha.QueryContainerImages',
    summary: 'QueryContainerImages',
    params: { chainId: { schema: chainIdParam, example: `sha256:${'0'.repeat(64)}` } },
    response: RESPONSE_OF.QueryContainerImages,
  },
  batch('/v3alpha/versionbatch', 'GetVersionBatch', versionBatchBody, { versionKey }),
  batch('/v3alpha/purlbatch', 'PurlLookupBatch', purlBatchBody, { purl: 'pkg:npm/lodash@4.17.21' }),
  batch('/v3alpha/projectbatch', 'GetProjectBatch', projectBatchBody, { projectKey }),
  batch('/v3alpha/findingsbatch', 'FindingsBatch', findingsBatchBody, { versionKey }),
];

export const OPERATIONS: Operation[] = [
  ...both('v3'),
  ...both('v3alpha'),
  ...ALPHA_ONLY,
  {
    method: 'get',
    path: '/openapi.json',
    route: '/openapi.json',
    operationId: 'openapi',
    summary: 'this document',
    response: RESPONSE_OF.OpenAPI,
  },
];

const schemaOf = (s: z.ZodType) => {
  const json = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _drop, ...rest } = json;
  return rest;
};

const errorRef = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

function operationObject(op: Operation): object {
  const parameters: object[] = Object.entries(op.params ?? {}).map(([name, p]) => ({
    name,
    in: 'path',
    required: true,
    schema: schemaOf(p.schema),
    example: p.example,
  }));
  if (op.query) {
    for (const [name, s] of Object.entries(op.query.shape)) {
      const example = op.queryExample?.[name];
      const schema = schemaOf(s as z.ZodType);
      parameters.push({ name, in: 'query', required: false, schema, ...(example ? { example } : {}) });
    }
  }
  const get = op.method === 'get';
  if (get) {
    parameters.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: 'an ETag of an earlier answer (or a list, or `*`): 304 when the answer is unchanged',
    });
  }
  const etagHeader = { ETag: { schema: { type: 'string' }, description: 'strong validator: SHA-1 of the body' } };
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(op.body), example: op.bodyExample } },
          },
        }
      : {}),
    responses: {
      200: {
        description: `deps.dev ${op.summary} answer`,
        ...(get ? { headers: etagHeader } : {}),
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${responseName(op.response)}` } } },
      },
      ...(get ? { 304: { description: 'unchanged since the ETag sent in If-None-Match', headers: etagHeader } } : {}),
      400: { description: 'malformed input', ...errorRef },
      404: { description: 'unknown item, or a route or :method this service does not serve', ...errorRef },
      ...(op.extra ?? {}),
    },
  };
}

/** The component name of a registered answer schema. */
export function responseName(schema: z.ZodType): string {
  const id = RESPONSES.get(schema)?.id;
  if (!id) throw new Error('an answer schema not registered in response-schemas.ts');
  return id;
}

/** Every registered answer schema as JSON Schema, sub-messages referred to by `$ref`. */
function responseSchemas(): Record<string, object> {
  const out = z.toJSONSchema(RESPONSES, { io: 'output', uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  return Object.fromEntries(
    Object.entries(out.schemas).map(([id, s]) => {
      const { $schema: _s, $id: _i, ...rest } = s;
      return [id, rest];
    }),
  );
}

export function openApiDocument(): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operationObject(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'insights',
      version: 'v3',
      description:
        'deps.dev v3 and v3alpha compatible API (docs/insights.md). Generated from the zod schemas the ' +
        'routes validate with; `{system}` is accepted in any case; names and ids are percent-encoded.',
    },
    paths,
    components: {
      schemas: {
        ...responseSchemas(),
        Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
      },
    },
  };
}
