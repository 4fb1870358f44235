/**
 * Findings (deps.dev v3alpha's newest method): what a dependency on a package or version risks, computed
 * from the store (queries-findings.ts) at request time, answered in deps.dev's `Findings` message
 * (reference/depsdev-proto, apiv3alpha.proto): `{versionKey | packageKey, recommendedVersions[Version],
 * requestedVersion: Version, defaultVersion: Version, packageFindings[Finding]}`, where a
 * `Findings.Version` is `{versionKey, isDefault, findings[Finding], cooldownEnd}` and a Finding is
 * `{type, risk, deprecatedContext | cooldownContext | lowUsageContext}`.
 * Types and their sources:
 *   NOT_FOUND   the package (after a read-through; package-scoped) or the version (version-scoped) is
 *               unknown                                                                RISK_HIGH
 *   MALICIOUS   an OSV `MAL-` record affects the version; package-scoped when it affects every stored
 *               version (the proto: "all versions in the package are malicious")     RISK_CRITICAL
 *   DEPRECATED  registry deprecation (npm), yanked (Cargo, PyPI) or unlisted (NuGet)    RISK_MEDIUM
 *               deprecatedContext{reason}
 *   COOLDOWN    published less than INSIGHTS_COOLDOWN_DAYS (default 7) days ago        RISK_LOW
 *               cooldownContext{end}; the Version's cooldownEnd is the same instant
 *   VULNERABLE  other advisories affect the version; risk from the highest CVSS v3 score
 *               (>= 9 critical, >= 7 high, >= 4 medium, else low)
 *   REMEDIATION on a recommended version, when the requested one is vulnerable or malicious: "this
 *               version remediates a security vulnerability" (the proto)             RISK_INFORMATIONAL
 *   LOW_USAGE   (only when INSIGHTS_LOW_USAGE_DEPENDENTS > 0) fewer than that many other stored packages
 *               depend on any version of the package (queries-usage.ts: what this service has indexed, not
 *               the registry); lowUsageContext{alternativePackages: names of similarly named packages used
 *               at least that often, most used first}. Package-scoped: it never makes a version
 *               recommended.                                                          RISK_LOW
 * Every Version's `findings` holds its own findings and all package-scoped ones, as the proto says.
 * recommendedVersions: when the version has a finding of its own, the nearest version that has none of
 * MALICIOUS, VULNERABLE, DEPRECATED, COOLDOWN and is in the request's major range (same first number;
 * for 0.x the same 0.x, as a caret range): the lowest such version above the request, else the highest
 * below it; prereleases only for a prerelease request. A package-level request has no requestedVersion;
 * its recommendations are those of the default version (what an unpinned install gets).
 */
import { compare, isPrerelease, type System } from '../versions/index.ts';
import { cooldownEnd, rfc3339 } from './cooldown.ts';
import type { FindingPackage, FindingVersion } from './queries-findings.ts';
import { insightsConfig } from './config.ts';

export { cooldownDays } from './cooldown.ts';

type Risk = 'RISK_CRITICAL' | 'RISK_HIGH' | 'RISK_MEDIUM' | 'RISK_LOW' | 'RISK_INFORMATIONAL';

export interface Finding {
  type: 'NOT_FOUND' | 'MALICIOUS' | 'DEPRECATED' | 'COOLDOWN' | 'VULNERABLE' | 'REMEDIATION' | 'LOW_USAGE';
  risk: Risk;
  deprecatedContext?: { reason: string };
  cooldownContext?: { end: string };
  lowUsageContext?: { alternativePackages: string[] };
}

/** deps.dev's `Findings.Version`. */
export interface FindingsVersion {
  versionKey: { system: System; name: string; version: string };
  isDefault: boolean;
  findings: Finding[];
  cooldownEnd?: string;
}

/** The LOW_USAGE threshold (INSIGHTS_LOW_USAGE_DEPENDENTS, dependent packages); 0, the default, turns it off. */
export function lowUsageThreshold(env: Record<string, unknown>): number {
  return insightsConfig(env).INSIGHTS_LOW_USAGE_DEPENDENTS;
}

const isMalicious = (id: string) => id.startsWith('MAL-');
const MALICIOUS: Finding = { type: 'MALICIOUS', risk: 'RISK_CRITICAL' };
const NOT_FOUND: Finding = { type: 'NOT_FOUND', risk: 'RISK_HIGH' };

/** The findings of one stored version, REMEDIATION and package-scoped ones aside. */
function versionFindings(v: FindingVersion, now: Date, cooldownMs: number): Finding[] {
  const out: Finding[] = [];
  if (v.advisories.some((a) => isMalicious(a.id))) out.push(MALICIOUS);
  if (v.deprecated || v.yanked) {
    const reason = v.reason || (v.yanked ? 'yanked' : '');
    out.push({ type: 'DEPRECATED', risk: 'RISK_MEDIUM', deprecatedContext: { reason } });
  }
  const end = cooldownEnd(v.publishedAt, now, cooldownMs / 86_400_000);
  if (end) out.push({ type: 'COOLDOWN', risk: 'RISK_LOW', cooldownContext: { end: rfc3339(end) } });
  const vulns = v.advisories.filter((a) => !isMalicious(a.id));
  if (vulns.length) {
    const top = Math.max(...vulns.map((a) => a.cvss3));
    const risk: Risk = top >= 9 ? 'RISK_CRITICAL' : top >= 7 ? 'RISK_HIGH' : top >= 4 ? 'RISK_MEDIUM' : 'RISK_LOW';
    out.push({ type: 'VULNERABLE', risk });
  }
  return out;
}

/** The major range of a version: its first number, or `0.minor` for 0.x (leading `v` allowed). */
function majorOf(version: string): string | null {
  const m = /^v?(\d+)(?:\.(\d+))?/.exec(version);
  if (!m) return null;
  return m[1] === '0' ? `0.${m[2] ?? ''}` : String(Number(m[1]));
}

function recommend(
  system: System,
  pkg: FindingPackage,
  requested: string,
  now: Date,
  cooldownMs: number,
): FindingVersion[] {
  const major = majorOf(requested);
  const pre = isPrerelease(system, requested);
  const clean = pkg.versions.filter(
    (v) =>
      v.version !== requested &&
      majorOf(v.version) === major &&
      (pre || !isPrerelease(system, v.version)) &&
      versionFindings(v, now, cooldownMs).length === 0,
  );
  const above = clean.filter((v) => compare(system, v.version, requested) > 0);
  const below = clean.filter((v) => compare(system, v.version, requested) < 0);
  const pick = above.length
    ? above.sort((a, b) => compare(system, a.version, b.version))[0]
    : below.sort((a, b) => compare(system, b.version, a.version))[0];
  return pick ? [pick] : [];
}

function defaultOf(pkg: FindingPackage): FindingVersion | undefined {
  return pkg.versions.find((v) => v.isDefault) ?? pkg.versions[pkg.versions.length - 1];
}

/** The package-scoped findings of a known package: MALICIOUS when every version is, LOW_USAGE. */
function packageScoped(pkg: FindingPackage): Finding[] {
  const out: Finding[] = [];
  if (pkg.versions.length && pkg.versions.every((v) => v.advisories.some((a) => isMalicious(a.id)))) {
    out.push(MALICIOUS);
  }
  if (pkg.usage && pkg.usage.dependents < pkg.usage.threshold) {
    out.push({ type: 'LOW_USAGE', risk: 'RISK_LOW', lowUsageContext: { alternativePackages: pkg.usage.alternatives } });
  }
  return out;
}

/** A `Findings.Version`: the version's own findings, then the package-scoped ones it does not already hold. */
function versionMessage(
  system: System,
  name: string,
  version: string,
  v: FindingVersion | undefined,
  own: Finding[],
  scoped: Finding[],
  end: Date | null,
): FindingsVersion {
  const findings = [...own, ...scoped.filter((s) => !own.some((f) => f.type === s.type))];
  const out: FindingsVersion = { versionKey: { system, name, version }, isDefault: v?.isDefault ?? false, findings };
  if (end) out.cooldownEnd = rfc3339(end);
  return out;
}

/** Findings of a version (`version` given) or of a package, in deps.dev's `Findings` message. */
export function findingsOf(system: System, pkg: FindingPackage, version: string | undefined, now: Date, days: number) {
  const cooldownMs = days * 86_400_000;
  const key =
    version === undefined
      ? { packageKey: { system, name: pkg.name } }
      : { versionKey: { system, name: pkg.name, version } };
  if (!pkg.known) {
    const requestedVersion =
      version === undefined ? undefined : versionMessage(system, pkg.name, version, undefined, [NOT_FOUND], [], null);
    return { ...key, recommendedVersions: [], requestedVersion, packageFindings: [NOT_FOUND] };
  }
  const scoped = packageScoped(pkg);
  const message = (v: FindingVersion, own: Finding[]) =>
    versionMessage(system, pkg.name, v.version, v, own, scoped, cooldownEnd(v.publishedAt, now, days));
  const def = defaultOf(pkg);
  const defaultVersion = def && message(def, versionFindings(def, now, cooldownMs));
  const target = version ?? def?.version;
  const v = pkg.versions.find((x) => x.version === target);
  const own = v ? versionFindings(v, now, cooldownMs) : [NOT_FOUND];
  const picked = own.length && target ? recommend(system, pkg, target, now, cooldownMs) : [];
  const remedies = own.some((f) => f.type === 'VULNERABLE' || f.type === 'MALICIOUS');
  const recommendedVersions = picked.map((r) =>
    message(r, remedies ? [{ type: 'REMEDIATION', risk: 'RISK_INFORMATIONAL' }] : []),
  );
  let requestedVersion: FindingsVersion | undefined;
  if (version !== undefined) {
    requestedVersion = v ? message(v, own) : versionMessage(system, pkg.name, version, undefined, own, scoped, null);
  }
  return { ...key, recommendedVersions, requestedVersion, defaultVersion, packageFindings: scoped };
}
