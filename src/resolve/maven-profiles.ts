/**
 * Which profiles of a POM Maven activates when it reads the POM as a dependency: `activeByDefault`
 * ones only when no other profile of that POM is active; `jdk` (a prefix such as `1.8` or `17`, `!`
 * negated, or a version range) against the target Java version; `os` (name, family, arch, `!` negated)
 * against the target platform (linux, unix, amd64); `property` against the target's system properties
 * (`!name` is active when the property is absent; no user properties are set). A `file` activation
 * never holds (a repository POM has no base directory). All conditions of one activation must hold.
 */
import { compare } from '../versions/index.ts';

export interface ActivationTarget {
  /** java.version of the JVM Maven runs on (default 17.0.15) */
  javaVersion?: string;
}

/**
 * A POM `<activation>` as the Maven adapter records it (src/insights/ingest/maven.ts: each value the
 * element's text), read back from stored JSON: every part optional, read by shape.
 */
export interface PomActivation {
  activeByDefault?: unknown;
  jdk?: { jdk?: unknown } | null;
  os?: { name?: unknown; family?: unknown; arch?: unknown; version?: unknown } | null;
  property?: { property?: { name?: unknown; value?: unknown } | null } | null;
  file?: { exists?: unknown; missing?: unknown } | null;
}

interface ProfileLike {
  activation?: PomActivation;
}

const OS = { name: 'linux', family: ['unix'], arch: 'amd64' };

function jdkMatches(spec: string, java: string): boolean {
  const neg = spec.startsWith('!');
  const s = neg ? spec.slice(1).trim() : spec.trim();
  let ok: boolean;
  const range = /^([[(])\s*([^,]*)\s*,\s*([^\])]*)\s*([\])])$/.exec(s);
  if (range) {
    const [, lo, from, to, hi] = range;
    const c1 = from ? compare('MAVEN', java, from) : 1;
    const c2 = to ? compare('MAVEN', java, to) : -1;
    ok = (lo === '[' ? c1 >= 0 : c1 > 0) && (hi === ']' ? c2 <= 0 : c2 < 0);
  } else {
    ok = java === s || java.startsWith(`${s}.`) || java.startsWith(`${s}_`) || java.startsWith(`${s}-`);
  }
  return neg ? !ok : ok;
}

function osMatches(os: NonNullable<PomActivation['os']>): boolean {
  const test = (want: unknown, have: (v: string) => boolean) => {
    if (!want || typeof want !== 'string') return true;
    const neg = want.startsWith('!');
    const ok = have((neg ? want.slice(1) : want).toLowerCase());
    return neg ? !ok : ok;
  };
  return (
    test(os.name, (v) => v === OS.name) &&
    test(os.family, (v) => OS.family.includes(v)) &&
    test(os.arch, (v) => v === OS.arch) &&
    !os.version
  );
}

function systemProperty(name: string, target: ActivationTarget): string | undefined {
  if (name === 'java.version') return target.javaVersion ?? '17.0.15';
  if (name === 'os.name') return 'Linux';
  if (name === 'os.arch') return OS.arch;
  return undefined;
}

function activatedBy(a: PomActivation, target: ActivationTarget): boolean {
  const conditions: boolean[] = [];
  if (typeof a.jdk?.jdk === 'string' && a.jdk.jdk)
    conditions.push(jdkMatches(a.jdk.jdk, target.javaVersion ?? '17.0.15'));
  if (a.os && typeof a.os === 'object') conditions.push(osMatches(a.os));
  const prop = a.property?.property;
  if (prop && typeof prop.name === 'string' && prop.name) {
    const neg = prop.name.startsWith('!');
    const value = systemProperty(neg ? prop.name.slice(1) : prop.name, target);
    if (neg) conditions.push(value === undefined);
    else if (!prop.value) conditions.push(value !== undefined);
    else if (String(prop.value).startsWith('!')) conditions.push(value !== String(prop.value).slice(1));
    else conditions.push(value === prop.value);
  }
  if (a.file && (a.file.exists || a.file.missing)) conditions.push(false);
  return conditions.length > 0 && conditions.every(Boolean);
}

export function activeProfiles<P extends ProfileLike>(profiles: readonly P[], target: ActivationTarget): P[] {
  const active = profiles.filter((p) => p.activation && activatedBy(p.activation, target));
  if (active.length) return active;
  return profiles.filter((p) => String(p.activation?.activeByDefault ?? '').trim() === 'true');
}
