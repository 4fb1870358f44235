/**
 * One guard in front of every route of every function: input that no handler could use safely is
 * answered 4xx in the service's own envelope before routing, authentication or the database see it.
 *  - the URL: longer than MAX_URL_CHARS -> 414; a path segment or query part with malformed
 *    percent-encoding -> 400; control characters (C0, DEL) once decoded -> 400 (Postgres cannot store
 *    NUL, and none of the APIs has a use for control characters in a path or parameter);
 *  - the body of POST/PUT/PATCH/DELETE: larger than MAX_BODY_BYTES -> 413; not valid UTF-8 -> 400; a NUL
 *    character, raw or as the JSON escape `\u0000` -> 400. Other control characters inside JSON strings
 *    (newlines, tabs) are ordinary text.
 * Messages never quote the input, and nothing from the request is copied into a response header.
 * The body is read once into Hono's body cache, so validators and signature checks read the same bytes.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './env.ts';
import { HttpError, renderError, type Dialect } from './errors.ts';

export const MAX_URL_CHARS = 8192;
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

const CONTROL = /[\u0000-\u001f\u007f]/;
const NUL_ESCAPE = /\\u0000/i;

function decodes(part: string, plusIsSpace: boolean): string | null {
  try {
    return decodeURIComponent(plusIsSpace ? part.replace(/\+/g, ' ') : part);
  } catch {
    return null;
  }
}

/** Why the URL is refused, or null. */
export function urlProblem(url: string): [ContentfulStatusCode, string] | null {
  if (url.length > MAX_URL_CHARS) return [414, `the URL is longer than ${MAX_URL_CHARS} characters`];
  const u = new URL(url);
  for (const seg of u.pathname.split('/')) {
    const d = decodes(seg, false);
    if (d === null) return [400, 'malformed percent-encoding in the path'];
    if (CONTROL.test(d)) return [400, 'control characters are not allowed in the path'];
  }
  for (const pair of u.search.slice(1).split('&')) {
    for (const part of pair.split('=')) {
      const d = decodes(part, true);
      if (d === null) return [400, 'malformed percent-encoding in the query'];
      if (CONTROL.test(d)) return [400, 'control characters are not allowed in query parameters'];
    }
  }
  return null;
}

/** Why the body is refused, or null. */
export function bodyProblem(bytes: Uint8Array): [ContentfulStatusCode, string] | null {
  if (bytes.byteLength > MAX_BODY_BYTES) return [413, `the body is larger than ${MAX_BODY_BYTES} bytes`];
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return [400, 'the body is not valid UTF-8'];
  }
  if (text.includes('\u0000') || NUL_ESCAPE.test(text)) return [400, 'NUL characters are not allowed in the body'];
  return null;
}

async function problem(c: Context<AppEnv>): Promise<[ContentfulStatusCode, string] | null> {
  const bad = urlProblem(c.req.url);
  if (bad) return bad;
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(c.req.method)) return null;
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) return [413, `the body is larger than ${MAX_BODY_BYTES} bytes`];
  return bodyProblem(new Uint8Array(await c.req.arrayBuffer()));
}

/** The guard; `dialectFor` names the envelope of a path (one function may serve two dialects). */
export function inputGuard(dialectFor: (path: string) => Dialect): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const bad = await problem(c);
    if (!bad) return next();
    const path = new URL(c.req.url).pathname;
    return renderError(dialectFor(path), c, bad[0], bad[1], new HttpError(bad[0], bad[1]));
  };
}
