/**
 * Maven's `${...}` interpolation of one string: each expression is looked up and its value interpolated
 * in turn (a property whose value names another property), an expression met again inside its own
 * value (a cycle) or one nothing defines is left as written, as Maven leaves it.
 */
export type Lookup = (expression: string) => string | undefined;

const EXPR = /\$\{([^}]*)\}/g;

export function interpolate(s: string, lookup: Lookup, active: readonly string[] = []): string {
  if (!s.includes('${')) return s;
  return s.replace(EXPR, (whole, expr: string) => {
    if (active.includes(expr)) return whole;
    const value = lookup(expr);
    return value === undefined ? whole : interpolate(value, lookup, [...active, expr]);
  });
}
