/**
 * Which versions an OSV record affects: the OSV schema's evaluation (docs/schema.md "Evaluation"), pure
 * (ingest/osv.ts loads the records, queries-write.ts stores what this decides). An `affected[]` entry
 * applies to a package when its ecosystem is the system's (`npm` <-> NPM, `crates.io` <-> CARGO, ...; a
 * `:suffix` such as `Debian:11` is ignored) and its name is the package's canonical name
 * (versions/names). A version is affected when the entry lists it in `versions` (as published or in
 * canonical form), or when it lies in one of the entry's ECOSYSTEM or SEMVER ranges: with the range's
 * events sorted by the system's version order ("0" below every version), the last event at or below the
 * version is `introduced` (`fixed` and `limit` exclude their own version, `last_affected` includes it).
 * GIT ranges name commits, not versions, and are not evaluated.
 */
import { canon, compare, type System } from '../versions/index.ts';
import { canonicalPackageName } from '../versions/names/index.ts';

export const ECOSYSTEMS: Record<System, string> = {
  NPM: 'npm',
  PYPI: 'PyPI',
  MAVEN: 'Maven',
  GO: 'Go',
  CARGO: 'crates.io',
  NUGET: 'NuGet',
  RUBYGEMS: 'RubyGems',
};
const SYSTEM_OF = new Map(Object.entries(ECOSYSTEMS).map(([s, e]) => [e, s as System]));

/**
 * An OSV record as evaluated here: the fields read, all optional (records are parsed at the boundary,
 * by ingest/osv.ts's schema, which asks for more; tests build partial ones).
 */
export interface Osv {
  id?: string;
  summary?: string | null;
  aliases?: readonly string[] | null;
  modified?: string | null;
  severity?: readonly OsvSeverity[] | null;
  affected?: readonly OsvAffected[] | null;
  [field: string]: unknown;
}
export interface OsvSeverity {
  type?: string;
  score?: string;
  [field: string]: unknown;
}
/** One `affected[]` entry. */
export interface OsvAffected {
  package?: { ecosystem?: string; name?: string; [field: string]: unknown } | null;
  severity?: readonly OsvSeverity[] | null;
  versions?: readonly string[] | null;
  ranges?: readonly { type?: string; events?: unknown; [field: string]: unknown }[] | null;
  [field: string]: unknown;
}

export type RangeEventKind = 'introduced' | 'fixed' | 'last_affected' | 'limit';
export interface RangeEvent {
  kind: RangeEventKind;
  version: string;
}
const EVENT_KINDS: readonly string[] = ['introduced', 'fixed', 'last_affected', 'limit'];

/** The system of an OSV ecosystem name (`PyPI`, `crates.io`, `Debian:11` -> none), undefined when not served. */
export function systemOfEcosystem(ecosystem: unknown): System | undefined {
  return SYSTEM_OF.get(String(ecosystem ?? '').split(':')[0]!);
}

/** Version order with OSV's "0", the version below all others. */
function compareEventVersions(system: System, a: string, b: string): number {
  if (a === b) return 0;
  if (a === '0') return -1;
  if (b === '0') return 1;
  return compare(system, a, b);
}

/** The events of an OSV range (`[{introduced: "1.0"}, {fixed: "1.2"}]`) in evaluation order; other kinds dropped. */
export function rangeEvents(system: System, events: unknown): RangeEvent[] {
  const out: RangeEvent[] = [];
  for (const e of Array.isArray(events) ? events : []) {
    const [kind, version] = Object.entries((e ?? {}) as Record<string, unknown>)[0] ?? ['', ''];
    if (EVENT_KINDS.includes(kind)) out.push({ kind: kind as RangeEventKind, version: String(version) });
  }
  return out.sort((x, y) => compareEventVersions(system, x.version, y.version));
}

/** Is `version` inside the range the sorted `events` describe? */
export function inRange(system: System, version: string, events: readonly RangeEvent[]): boolean {
  let affected = false;
  for (const e of events) {
    const c = compareEventVersions(system, version, e.version);
    if (e.kind === 'introduced' && c >= 0) affected = true;
    else if ((e.kind === 'fixed' || e.kind === 'limit') && c >= 0) affected = false;
    else if (e.kind === 'last_affected' && c > 0) affected = false;
  }
  return affected;
}

/** Does one `affected[]` entry (already known to name the package) affect `version` (canonical)? */
export function entryAffects(system: System, entry: OsvAffected, version: string): boolean {
  if ((entry.versions ?? []).some((v) => v === version || canon(system, v) === version)) return true;
  return (entry.ranges ?? []).some(
    (r) => (r?.type === 'ECOSYSTEM' || r?.type === 'SEMVER') && inRange(system, version, rangeEvents(system, r.events)),
  );
}

/** The `affected[]` entries of a record that name (system, canonical name). */
function entriesFor(osv: Osv, system: System, name: string): OsvAffected[] {
  return (osv.affected ?? []).filter(
    (a) =>
      systemOfEcosystem(a?.package?.ecosystem) === system &&
      canonicalPackageName(system, String(a.package?.name ?? '')) === name,
  );
}

/** Is `version` (canonical) of (system, name) affected by the record? */
export function isAffected(osv: Osv, system: System, name: string, version: string): boolean {
  return entriesFor(osv, system, name).some((entry) => entryAffects(system, entry, version));
}

/** The packages an OSV record names, as (system, canonical name), each once. */
export function osvPackages(osv: Osv): { system: System; name: string }[] {
  const out: { system: System; name: string }[] = [];
  for (const a of osv.affected ?? []) {
    const system = systemOfEcosystem(a?.package?.ecosystem);
    if (!system || typeof a.package?.name !== 'string') continue;
    const name = canonicalPackageName(system, a.package.name);
    if (!out.some((p) => p.system === system && p.name === name)) out.push({ system, name });
  }
  return out;
}
