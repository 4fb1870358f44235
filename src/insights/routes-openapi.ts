/** `GET /openapi.json`: the generated OpenAPI 3.1 document of the insights API (openapi.ts), built once per isolate. */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { openApiDocument } from './openapi.ts';
import { jsonText } from './views.ts';

export const openApiRoutes = new Hono<AppEnv>();

let text: string | undefined;

openApiRoutes.get('/openapi.json', (c) => {
  text ??= JSON.stringify(openApiDocument());
  return jsonText(c, text);
});
