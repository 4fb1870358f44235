/**
 * Five-field cron (minute hour day-of-month month day-of-week, UTC) as Cloudflare cron triggers and
 * Vixie cron read it: `*`, lists, ranges, steps (`*\/15`, `1-5/2`), names for months and weekdays,
 * 7 = Sunday; when both day fields are restricted a day matches either (Vixie rule).
 * `nextRun(expr, after)` is the first matching minute strictly after `after`, searched minute by
 * minute with day/hour skipping, within 5 years (else null). `parseCron` throws on bad input.
 */
const FIELDS = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
] as const;

export interface Cron {
  sets: Set<number>[];
  domAny: boolean;
  dowAny: boolean;
}

function value(s: string, f: (typeof FIELDS)[number]): number {
  const names = 'names' in f ? (f.names as readonly string[]) : undefined;
  const idx = names ? names.indexOf(s.toLowerCase()) : -1;
  const n = idx >= 0 ? idx + (f.min === 1 ? 1 : 0) : /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isInteger(n) || n < f.min || n > f.max) throw new Error(`invalid cron value "${s}"`);
  return n;
}

export function parseCron(expr: string): Cron {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error('cron expression must have 5 fields');
  const sets = parts.map((part, i) => {
    const f = FIELDS[i]!;
    const set = new Set<number>();
    for (const item of part.split(',')) {
      const [range, stepS] = item.split('/');
      const step = stepS === undefined ? 1 : Number(stepS);
      if (!Number.isInteger(step) || step < 1) throw new Error(`invalid cron step "${item}"`);
      let lo: number, hi: number;
      if (range === '*') [lo, hi] = [f.min, f.max];
      else if (range!.includes('-')) {
        const [a, b] = range!.split('-');
        [lo, hi] = [value(a!, f), value(b!, f)];
        if (lo > hi) throw new Error(`invalid cron range "${item}"`);
      } else {
        lo = value(range!, f);
        hi = stepS === undefined ? lo : f.max;
      }
      for (let v = lo; v <= hi; v += step) set.add(i === 4 && v === 7 ? 0 : v);
    }
    return set;
  });
  return { sets, domAny: parts[2] === '*', dowAny: parts[4] === '*' };
}

function dayMatches(c: Cron, d: Date): boolean {
  const dom = c.sets[2]!.has(d.getUTCDate());
  const dow = c.sets[4]!.has(d.getUTCDay());
  if (c.domAny || c.dowAny) return dom && dow;
  return dom || dow;
}

export function nextRun(expr: string | Cron, after: Date): Date | null {
  const c = typeof expr === 'string' ? parseCron(expr) : expr;
  const t = new Date(after.getTime());
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  const limit = after.getTime() + 5 * 366 * 86_400_000;
  while (t.getTime() <= limit) {
    if (!c.sets[3]!.has(t.getUTCMonth() + 1) || !dayMatches(c, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!c.sets[1]!.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
      continue;
    }
    if (c.sets[0]!.has(t.getUTCMinutes())) return t;
    t.setUTCMinutes(t.getUTCMinutes() + 1);
  }
  return null;
}

/** The schedule a monitor runs on: its custom cron, else daily 00:00 / Monday 00:00 UTC, else none. */
export function monitorSchedule(m: { custom_schedule: string | null; time_period: string }): string | null {
  if (m.custom_schedule) return m.custom_schedule;
  if (m.time_period === 'daily') return '0 0 * * *';
  if (m.time_period === 'weekly') return '0 0 * * 1';
  return null;
}
