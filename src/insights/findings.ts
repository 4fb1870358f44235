/**
 * Findings (deps.dev v3alpha's newest method): what a dependency on a package or version risks, computed
 * from the store (queries-findings.ts) at request time. Message: `{versionKey | packageKey,
 * requestedVersion, defaultVersion, recommendedVersions[], packageFindings[{type, risk, ...context}]}`.
 * Types and their sources:
 *   NOT_FOUND   the package (after a read-through) or the version is unknown            RISK_HIGH
 *   MALICIOUS   an OSV `MAL-` record affects the version (package level: any version)   RISK_CRITICAL
 *   DEPRECATED  registry deprecation (npm), yanked (Cargo, PyPI) or unlisted (NuGet)    RISK_MEDIUM
 *               deprecatedContext{reason}
 *   COOLDOWN    published less than INSIGHTS_COOLDOWN_DAYS (default 7) days ago        RISK_LOW
 *               cooldownContext{end}
 *   VULNERABLE  other advisories affect the version; risk from the highest CVSS v3 score
 *               (>= 9 critical, >= 7 high, >= 4 medium, else low)                     vulnerableContext{advisoryKeys}
 *   REMEDIATION the version is vulnerable or malicious and a recommended version exists RISK_INFORMATIONAL
 *   LOW_USAGE   (only when INSIGHTS_LOW_USAGE_DEPENDENTS > 0) fewer than that many other stored packages
 *               depend on any version of the package (queries-usage.ts: what this service has indexed, not
 *               the registry); lowUsageContext{alternativePackages: similarly named packages used at least
 *               that often, most used first}. Package-level: it never makes a version recommended. RISK_LOW
 * recommendedVersions: when the version has any finding but REMEDIATION, the nearest version that has
 * none of MALICIOUS, VULNERABLE, DEPRECATED, COOLDOWN and is in the request's major range (same first
 * number; for 0.x the same 0.x, as a caret range): the lowest such version above the request, else the
 * highest below it; prereleases only for a prerelease request. A package-level request is answered
 * for the package's default version (what an unpinned install gets), plus MALICIOUS for any version.
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
  vulnerableContext?: { advisoryKeys: { id: string }[] };
  lowUsageContext?: { alternativePackages: { system: string; name: string }[] };
}

/** The LOW_USAGE threshold (INSIGHTS_LOW_USAGE_DEPENDENTS, dependent packages); 0, the default, turns it off. */
export function lowUsageThreshold(env: Record<string, unknown>): number {
  return insightsConfig(env).INSIGHTS_LOW_USAGE_DEPENDENTS;
}

const isMalicious = (id: string) => id.startsWith('MAL-');

/** The findings of one stored version, REMEDIATION aside. */
function versionFindings(v: FindingVersion, now: Date, cooldownMs: number): Finding[] {
  const out: Finding[] = [];
  if (v.advisories.some((a) => isMalicious(a.id))) out.push({ type: 'MALICIOUS', risk: 'RISK_CRITICAL' });
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
    out.push({ type: 'VULNERABLE', risk, vulnerableContext: { advisoryKeys: vulns.map((a) => ({ id: a.id })) } });
  }
  return out;
}

/** The major range of a version: its first number, or `0.minor` for 0.x (leading `v` allowed). */
function majorOf(version: string): string | null {
  const m = /^v?(\d+)(?:\.(\d+))?/.exec(version);
  if (!m) return null;
  return m[1] === '0' ? `0.${m[2] ?? ''}` : String(Number(m[1]));
}

function recommend(system: System, pkg: FindingPackage, requested: string, now: Date, cooldownMs: number): string[] {
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
  return pick ? [pick.version] : [];
}

function defaultOf(pkg: FindingPackage): string {
  return (pkg.versions.find((v) => v.isDefault) ?? pkg.versions[pkg.versions.length - 1])?.version ?? '';
}

/** Findings of a version (`version` given) or of a package. */
export function findingsOf(system: System, pkg: FindingPackage, version: string | undefined, now: Date, days: number) {
  const cooldownMs = days * 86_400_000;
  const key =
    version === undefined
      ? { packageKey: { system, name: pkg.name } }
      : { versionKey: { system, name: pkg.name, version } };
  const defaultVersion = defaultOf(pkg);
  const head = { ...key, requestedVersion: version ?? '', defaultVersion };
  if (!pkg.known) {
    return { ...head, recommendedVersions: [], packageFindings: [{ type: 'NOT_FOUND', risk: 'RISK_HIGH' }] };
  }
  const target = version ?? defaultVersion;
  const v = pkg.versions.find((x) => x.version === target);
  let findings: Finding[];
  if (!v) findings = [{ type: 'NOT_FOUND', risk: 'RISK_HIGH' }];
  else findings = versionFindings(v, now, cooldownMs);
  if (
    version === undefined &&
    !findings.some((f) => f.type === 'MALICIOUS') &&
    pkg.versions.some((x) => x.advisories.some((a) => isMalicious(a.id)))
  ) {
    findings.unshift({ type: 'MALICIOUS', risk: 'RISK_CRITICAL' });
  }
  const recommendedVersions = findings.length && target ? recommend(system, pkg, target, now, cooldownMs) : [];
  if (recommendedVersions.length && findings.some((f) => f.type === 'VULNERABLE' || f.type === 'MALICIOUS')) {
    findings.push({ type: 'REMEDIATION', risk: 'RISK_INFORMATIONAL' });
  }
  if (pkg.usage && pkg.usage.dependents < pkg.usage.threshold) {
    const alternativePackages = pkg.usage.alternatives.map((name) => ({ system, name }));
    findings.push({ type: 'LOW_USAGE', risk: 'RISK_LOW', lowUsageContext: { alternativePackages } });
  }
  return { ...head, recommendedVersions, packageFindings: findings };
}
