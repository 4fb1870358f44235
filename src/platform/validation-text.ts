/**
 * Validation failures in words a caller can act on: "`edition` is required", "`edition` must be a
 * number", "`include` must be one of: a, b". zod's own texts ("Invalid input: expected number, received
 * NaN", a regular expression) describe the validator, not the request. A message a schema wrote itself
 * (a refinement, `{ message }`) is kept as written, after the field's name.
 */
import type { core } from 'zod';

type Issue = core.$ZodIssue;

/** zod's default messages begin so; anything else was written by a schema and is kept. */
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized key|Expected)/;

const ARTICLE: Record<string, string> = {
  array: 'an array',
  object: 'an object',
  int: 'an integer',
  integer: 'an integer',
  undefined: 'absent',
};

/** The value at `path` inside `raw` (undefined where any step is missing). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'symbol' ? String(p) : p)).join('.');
}

function kind(expected: string): string {
  return ARTICLE[expected] ?? `a ${expected}`;
}

function sizeText(issue: Issue & { code: 'too_small' | 'too_big' }): string {
  const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
  const side =
    issue.code === 'too_small'
      ? issue.inclusive === false
        ? 'more than'
        : 'at least'
      : issue.inclusive === false
        ? 'less than'
        : 'at most';
  switch (issue.origin) {
    case 'string':
      return `must be ${side} ${bound} character${Number(bound) === 1 ? '' : 's'} long`;
    case 'array':
    case 'set':
      return `must have ${side} ${bound} item${Number(bound) === 1 ? '' : 's'}`;
    default:
      return `must be ${side} ${bound}`;
  }
}

/** What is wrong with the field, as a predicate ("is required", "must be a number"). */
function predicate(issue: Issue, raw: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return valueAt(raw, issue.path) === undefined ? 'is required' : `must be ${kind(issue.expected)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'too_small':
    case 'too_big':
      return sizeText(issue);
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected format' : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return 'is not valid';
    default:
      return issue.message;
  }
}

/** One sentence for one issue; `raw` is the input that was validated (to tell absent from wrong). */
export function issueText(issue: Issue, raw: unknown): { text: string; code: string } {
  const name = fieldName(issue.path);
  const missing = issue.code === 'invalid_type' && valueAt(raw, issue.path) === undefined;
  const code = missing ? 'missing' : issue.code;
  if (!ZOD_DEFAULT.test(issue.message)) return { text: name ? `${name}: ${issue.message}` : issue.message, code };
  if (issue.code === 'unrecognized_keys') {
    const where = name ? `\`${name}\` ` : 'the input ';
    return { text: `${where}${predicate(issue, raw)}`, code };
  }
  return { text: name ? `\`${name}\` ${predicate(issue, raw)}` : `the input ${predicate(issue, raw)}`, code };
}
