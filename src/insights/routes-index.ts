/** `GET /`: what this service is, where its OpenAPI document is, and a few requests to try. */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { serviceIndex } from '../platform/service-index.ts';

export const indexRoutes = new Hono<AppEnv>();

indexRoutes.get(
  '/',
  serviceIndex({
    name: 'Package insights API',
    description:
      'A read-only API compatible with deps.dev v3 and v3alpha: packages, versions, requirements, resolved dependency graphs, projects, advisories and queries for Go, Maven, npm, NuGet, RubyGems, PyPI and Cargo.',
    links: [
      { rel: 'service-desc', href: '/openapi.json', title: 'OpenAPI document (every operation and message)' },
      {
        rel: 'help',
        href: 'https://docs.deps.dev/api/v3/',
        title: 'deps.dev API v3 documentation (the API this one follows)',
      },
      { rel: 'status', href: '/healthz', title: 'Health' },
    ],
    examples: [
      { title: 'GetPackage', method: 'GET', path: '/v3/systems/npm/packages/express' },
      { title: 'GetVersion', method: 'GET', path: '/v3/systems/npm/packages/express/versions/4.21.2' },
      {
        title: 'GetDependencies',
        method: 'GET',
        path: '/v3/systems/npm/packages/express/versions/4.21.2:dependencies',
      },
      {
        title: 'Query',
        method: 'GET',
        path: '/v3/query?versionKey.system=NPM&versionKey.name=express&versionKey.version=4.21.2',
      },
      { title: 'GetVersionBatch', method: 'POST', path: '/v3alpha/versionbatch' },
    ],
  }),
);
