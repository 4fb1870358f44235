/**
 * Input schemas (zod), the server-side form of the original client's checks (SellBook.js,
 * VerifyService) plus the limits the original lacked. Field names are the original's.
 * Bodies: the original's client wraps every body as `{data: {...}}` (requestBook even as
 * `{data: {payload: {...}}}`), other clients send it bare; `body(schema)` accepts both and validates
 * them with the same schema.
 */
import * as z from 'zod';
import type { ZodType } from 'zod';
import { validate } from '../platform/validate.ts';
import type { ListingCursor } from './queries-books.ts';
import { normalizeIsbn } from './matching.ts';

export const EDU_EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.edu$/i;

export const id = z
  .union([
    z.string().regex(/^\d{1,15}$/, 'must be a numeric id'),
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  ])
  .transform((v) => String(v));

const personName = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[\p{L}][\p{L}\p{M} .'-]*$/u, 'letters, spaces, hyphens and apostrophes only');
const cmc = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9 -]+$/, 'letters, digits, spaces and hyphens only');
// Venmo usernames: 5-30 letters, digits, hyphens and underscores; a leading @ is dropped.
const venmo = z
  .string()
  .trim()
  .transform((s) => s.replace(/^@/, ''))
  .pipe(z.string().regex(/^[A-Za-z0-9_-]{5,30}$/, '5-30 letters, digits, hyphens or underscores'));
export const password = z
  .string()
  .min(8, 'at least 8 characters')
  .max(128)
  .refine((p) => /\p{L}/u.test(p) && /\d/.test(p), 'must contain a letter and a digit');
const email = z
  .string()
  .trim()
  .max(254)
  .regex(EDU_EMAIL, 'must be a valid .edu address')
  .transform((s) => s.toLowerCase());

export const signupSchema = z.object({
  emailAddress: email,
  password,
  firstName: personName,
  lastName: personName,
  university: z.string().trim().min(2).max(100),
  CMC: cmc,
  venmoUsername: venmo,
});
export type SignupInput = z.infer<typeof signupSchema>;

export const loginSchema = z.object({
  emailAddress: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .transform((s) => s.toLowerCase()),
  password: z.string().min(1).max(128),
});

export const profileSchema = z
  .object({
    firstName: personName.optional(),
    lastName: personName.optional(),
    venmoUsername: venmo.optional(),
    CMC: cmc.optional(),
  })
  .refine((o) => Object.values(o).some((v) => v !== undefined), 'nothing to update');

export const passwordChangeSchema = z.object({ password: z.string().min(1).max(128), newPassword: password });
export const resetRequestSchema = z.object({
  emailAddress: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .transform((s) => s.toLowerCase()),
});
export const resetSchema = z.object({ token: z.string().min(10).max(200), password });

const isbn = z
  .union([z.string().max(20), z.number().int().nonnegative()])
  .optional()
  .nullable()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return null;
    const n = normalizeIsbn(v);
    if (!n) {
      ctx.addIssue({ code: 'custom', message: 'not a valid ISBN-10 or ISBN-13' });
      return z.NEVER;
    }
    return n;
  });
// Course codes like "CSC 171", "MTH-150A": 2-5 letters, 3-4 digits, an optional letter.
const course = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2,5}[ -]?\d{3,4}[A-Za-z]?$/, 'course code like "CSC 171"')
  .transform((s) => s.toUpperCase());

export const bookSchema = z.object({
  name: z.string().trim().min(1).max(200),
  edition: z.coerce.number().int().min(0).max(100),
  course,
  price: z.coerce.number().min(1).max(200).multipleOf(0.01),
  condition: z.string().trim().min(1).max(50),
  date: z.union([z.number(), z.string().max(40), z.object({}).passthrough()]).optional(),
  comments: z.string().trim().max(1000).optional(),
  Comments: z.string().trim().max(1000).optional(),
  ISBN: isbn,
});
export type BookInput = z.infer<typeof bookSchema>;

export const requestSchema = z.object({ name: z.string().trim().min(1).max(200), course, ISBN: isbn });
export type RequestInput = z.infer<typeof requestSchema>;

export const bookIdSchema = z.object({ bookID: id });
export const idSchema = z.object({ id });
export const userIdSchema = z.object({ userID: id });
export const setStatusSchema = z.object({ bookID: id, status: z.coerce.number().int() });
export const unlistSchema = z.object({ days: z.coerce.number().int().min(1).max(3650).optional() }).optional();

export const pageSchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(40),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const MAX_PAGE = 100;

/** The listing cursor: base64url of `<posted_at in microseconds>.<book id>` (opaque to clients). */
export function encodeCursor(c: ListingCursor): string {
  return btoa(`${c.postedUs}.${c.id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(text: string): ListingCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(text)) return undefined;
  let plain: string;
  try {
    plain = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const m = /^(-?\d{1,17})\.(\d{1,18})$/.exec(plain);
  return m ? { postedUs: m[1]!, id: m[2]! } : undefined;
}

export const cursorQuery = z.object({
  cursor: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined; // `?cursor=` (no next page was given): the first page
      const c = decodeCursor(v);
      if (!c)
        ctx.addIssue({
          code: 'custom',
          message: 'cursor is not one this service gave out (take it from X-Next-Cursor)',
        });
      return c ?? z.NEVER;
    }),
});

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{data: X}` -> X, `{data: {payload: X}}` -> X, anything else unchanged. */
export function unwrapBody(body: unknown): unknown {
  let b = body;
  if (isObject(b) && Object.keys(b).length === 1 && isObject(b.data)) b = b.data;
  if (isObject(b) && Object.keys(b).length === 1 && isObject(b.payload)) b = b.payload;
  return b;
}

/** `validate('json', ...)` over the unwrapped body. */
export function body<S extends ZodType>(schema: S) {
  return validate('json', z.preprocess(unwrapBody, schema) as unknown as S);
}
