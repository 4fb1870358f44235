/**
 * A boolean query parameter as real clients send it: `true`/`false` (JavaScript, curl), `True`/`False`
 * (Python's str(bool), which openapi-generator's Python SDKs send), `1`/`0`, in any case. Anything
 * else is a validation error (400 in the service's own envelope), never silently false.
 */
import * as z from 'zod';

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

export const queryBool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => TRUE.has(v) || FALSE.has(v), { message: 'must be true or false (also True/False, 1/0)' })
  .transform((v) => TRUE.has(v));
