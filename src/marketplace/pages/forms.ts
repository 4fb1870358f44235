/**
 * Form input for the pages: the posted fields go through the API's own zod schemas (schemas.ts), so a
 * page accepts exactly what the API accepts; a refusal comes back as messages per field. An action's
 * HttpError becomes a notice and the page's status (4xx as the API answers it).
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodType } from 'zod';
import type { AppEnv } from '../../platform/env.ts';
import { HttpError } from '../../platform/errors.ts';
import type { Notice } from './html.ts';
import { CSRF_FIELD } from './session.ts';

export type Parsed<T> =
  | { ok: true; data: T; values: Record<string, string> }
  | { ok: false; errors: Record<string, string>; values: Record<string, string> };

/** The form's text fields (files and the CSRF token left out); empty optional fields become absent. */
export async function formValues(c: Context<AppEnv>): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string' && k !== CSRF_FIELD) out[k] = v;
  return out;
}

export async function parseForm<T>(
  c: Context<AppEnv>,
  schema: ZodType<T>,
  optional: string[] = [],
): Promise<Parsed<T>> {
  const values = await formValues(c);
  const input: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (!(optional.includes(k) && v.trim() === '')) input[k] = v;
  const r = schema.safeParse(input);
  if (r.success) return { ok: true, data: r.data, values };
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = String(issue.path[0] ?? '_form');
    errors[key] ??= issue.message;
  }
  return { ok: false, errors, values };
}

/** A refused action as the page shows it; anything but an HttpError is rethrown (a 500 page). */
export function refusal(err: unknown): { notice: Notice; status: ContentfulStatusCode } {
  if (!(err instanceof HttpError)) throw err;
  return { notice: { kind: 'error', text: err.message }, status: err.status };
}

export const INVALID: Notice = { kind: 'error', text: 'Some fields need another look; see the messages below.' };

/** What a redirect after a successful POST says on the next page (`?done=<key>`; other keys say nothing). */
const DONE: Record<string, string> = {
  in: 'You are logged in.',
  out: 'You are logged out; every session of your account has ended.',
  posted: 'Your book is listed.',
  requested: 'Your request is recorded; we will tell you when a matching book is posted.',
  deleted: 'The book was deleted.',
  reactivated: 'The book is listed again.',
  'request-deleted': 'The request was deleted.',
  added: 'The book is in your cart.',
  removed: 'The book left your cart.',
  bought: 'Thank you! Your purchase is recorded; you will be charged once staff have checked the books.',
  profile: 'Your profile is saved.',
  password: 'Your password is changed; other sessions were signed out.',
  moved: 'The book moved on.',
  completed: 'The transaction is complete.',
  admin: 'The permission was changed.',
};

export function doneNotice(c: Context<AppEnv>): Notice | undefined {
  const text = DONE[c.req.query('done') ?? ''];
  return text ? { kind: 'ok', text } : undefined;
}
