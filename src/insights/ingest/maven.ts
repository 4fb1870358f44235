/**
 * Maven repository layout adapter: `{MAVEN_REPO_URL}/{group/as/path}/{artifact}/maven-metadata.xml`
 * lists the versions; each version's POM `{artifact}-{version}.pom` gives the requirements exactly
 * as declared (no parent merge, no property interpolation; dependency `type` defaults to `jar`).
 * publishedAt is the POM's Last-Modified header (what Maven Central reports). Licenses and links
 * are metadata Maven inherits, so they are taken from the nearest POM in the parent chain that
 * declares them (at most 5 parents, each fetched once): links SOURCE_REPO (scm/url), ISSUE_TRACKER
 * (issueManagement/url), HOMEPAGE (url), in that order. Default = `<release>` when listed, else
 * the greatest non-prerelease version.
 *
 * For a dependency resolution (fetchMavenForResolve) the package is read in one request,
 * `maven-metadata.xml`, every version listed `pending`; the resolution reads the POM of each version it
 * considers, and of each parent and imported BOM, by path (fetchMavenPom: one request, as Maven itself
 * reads them, no checksums, licenses and links from that POM alone). Such packages are stored partial
 * (read in full by the package routes).
 *
 * Artifact hashes: the main artifact `{artifact}-{version}.{ext}` (ext from <packaging>: pom, war,
 * ear, rar, aar as named, anything else jar) has its digests beside it in the repository layout,
 * `.sha1` and `.md5` (hex, optionally followed by the file name, as Maven Central serves them);
 * each present one is stored for Query by hash. A missing, failing or malformed checksum file is no hash (logged when the
 * upstream failed), not a failed ingestion.
 */
import { mavenCoordinates } from '../../versions/names/index.ts';
import { fetchText, fetchUpstream, hexToBase64, isoTime, mapLimit, upstreamUrl, type UpstreamEnv } from './http.ts';
import { licenseFields } from './licenses.ts';
import { child, children, parseXml, textAt, type XmlNode } from '../../platform/xml.ts';
import {
  UpstreamError,
  UpstreamNotFound,
  type Artifact,
  type HashValue,
  type IngestedPackage,
  type IngestedVersion,
  type Link,
} from './types.ts';
import { warnUpstream } from './upstream-log.ts';

export const MAVEN_REGISTRY = 'https://repo.maven.apache.org/maven2/';

function splitName(name: string): [string, string] {
  const coordinates = mavenCoordinates(name);
  if (!coordinates) throw new UpstreamNotFound(`maven name must be group:artifact: ${name}`);
  return coordinates;
}

function artifactDir(base: string, group: string, artifact: string): string {
  return `${base}/${group.split('.').map(encodeURIComponent).join('/')}/${encodeURIComponent(artifact)}`;
}

function xml(text: string, what: string): XmlNode {
  try {
    return parseXml(text);
  } catch (err) {
    throw new UpstreamError(`${what}: ${(err as Error).message}`);
  }
}

async function metadata(base: string, group: string, artifact: string): Promise<{ listed: string[]; release: string }> {
  const meta = xml(await fetchText(`${artifactDir(base, group, artifact)}/maven-metadata.xml`), 'maven-metadata.xml');
  const versioning = child(child(meta, 'metadata'), 'versioning');
  const listed = children(child(versioning, 'versions'), 'version')
    .map((v) => v.text.trim())
    .filter(Boolean);
  return { listed, release: textAt(versioning, 'release') };
}

/** The package for a dependency resolution: its version list only, each version `pending` until its POM is read (fetchMavenPom). */
export async function fetchMavenForResolve(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const [group, artifact] = splitName(name);
  const { listed, release } = await metadata(upstreamUrl(env, 'MAVEN_REPO_URL'), group, artifact);
  const versions: IngestedVersion[] = listed.map((version) => ({
    version,
    publishedAt: null,
    deprecated: null,
    licenses: [],
    links: [],
    registries: [MAVEN_REGISTRY],
    slsaProvenances: [],
    attestations: [],
    requirements: null,
    meta: { pending: true },
    artifacts: [],
  }));
  return {
    system: 'MAVEN',
    name: `${group}:${artifact}`,
    versions,
    partial: true,
    ...(release && listed.includes(release) ? { defaultVersion: release } : {}),
  };
}

/** One version's POM by path (listed in maven-metadata.xml or not, as Maven reads parents and BOMs); throws UpstreamNotFound when absent. */
export async function fetchMavenPom(env: UpstreamEnv, name: string, version: string): Promise<IngestedVersion> {
  const base = upstreamUrl(env, 'MAVEN_REPO_URL');
  const [group, artifact] = splitName(name);
  const res = await fetchUpstream(
    `${artifactDir(base, group, artifact)}/${encodeURIComponent(version)}/${encodeURIComponent(artifact)}-${encodeURIComponent(version)}.pom`,
  );
  const pom = child(xml(await res.text(), `${name}:${version} POM`), 'project');
  if (!pom) throw new UpstreamError(`${name}:${version} POM has no <project>`);
  return mavenVersion(version, pom, res.headers.get('last-modified'), async () => null);
}

export async function fetchMaven(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const base = upstreamUrl(env, 'MAVEN_REPO_URL');
  const [group, artifact] = splitName(name);
  const { listed, release } = await metadata(base, group, artifact);
  const poms = new Map<string, Promise<{ pom: XmlNode; lastModified: string | null } | null>>();
  const loadPom = (g: string, a: string, v: string) => {
    const key = `${g}:${a}:${v}`;
    let p = poms.get(key);
    if (!p) {
      p = (async () => {
        try {
          const res = await fetchUpstream(
            `${artifactDir(base, g, a)}/${encodeURIComponent(v)}/${encodeURIComponent(a)}-${encodeURIComponent(v)}.pom`,
          );
          return {
            pom: child(xml(await res.text(), `${key} POM`), 'project')!,
            lastModified: res.headers.get('last-modified'),
          };
        } catch (err) {
          if (err instanceof UpstreamNotFound) return null;
          throw err;
        }
      })();
      poms.set(key, p);
    }
    return p;
  };
  const versions = (
    await mapLimit(listed, 8, async (v) => {
      const loaded = await loadPom(group, artifact, v);
      if (!loaded) return null;
      const version = await mavenVersion(v, loaded.pom, loaded.lastModified, loadPom);
      version.artifacts = await mavenArtifacts(base, group, artifact, v, textAt(loaded.pom, 'packaging'));
      return version;
    })
  ).filter((v): v is IngestedVersion => v !== null);
  return {
    system: 'MAVEN',
    name: `${group}:${artifact}`,
    versions,
    ...(release && listed.includes(release) ? { defaultVersion: release } : {}),
  };
}

type PomLoader = (g: string, a: string, v: string) => Promise<{ pom: XmlNode; lastModified: string | null } | null>;

async function inherited(pom: XmlNode, load: PomLoader, pick: (p: XmlNode) => string[] | null): Promise<string[]> {
  let cur: XmlNode | undefined = pom;
  for (let depth = 0; cur && depth <= 5; depth++) {
    const found = pick(cur);
    if (found?.length) return found;
    const parent = child(cur, 'parent');
    if (!parent) break;
    const loaded = await load(textAt(parent, 'groupId'), textAt(parent, 'artifactId'), textAt(parent, 'version'));
    cur = loaded?.pom;
  }
  return [];
}

function dependency(d: XmlNode) {
  return {
    name: `${textAt(d, 'groupId')}:${textAt(d, 'artifactId')}`,
    version: textAt(d, 'version'),
    classifier: textAt(d, 'classifier'),
    type: textAt(d, 'type') || 'jar',
    scope: textAt(d, 'scope'),
    optional: textAt(d, 'optional'),
    exclusions: children(child(d, 'exclusions'), 'exclusion').map(
      (e) => `${textAt(e, 'groupId')}:${textAt(e, 'artifactId')}`,
    ),
  };
}

function deps(node: XmlNode | undefined) {
  return children(child(node, 'dependencies'), 'dependency').map(dependency);
}

function properties(node: XmlNode | undefined) {
  return (child(node, 'properties')?.children ?? []).map((p) => ({ name: p.name, value: p.text.trim() }));
}

function repositories(node: XmlNode | undefined) {
  return children(child(node, 'repositories'), 'repository').map((r) => ({
    id: textAt(r, 'id'),
    url: textAt(r, 'url'),
    layout: textAt(r, 'layout'),
    releasesEnabled: textAt(r, 'releases', 'enabled'),
    snapshotsEnabled: textAt(r, 'snapshots', 'enabled'),
  }));
}

function activation(a: XmlNode | undefined) {
  const out: Record<string, unknown> = { activeByDefault: textAt(a, 'activeByDefault') };
  if (child(a, 'jdk')) out.jdk = { jdk: textAt(a, 'jdk') };
  const os = child(a, 'os');
  if (os)
    out.os = {
      name: textAt(os, 'name'),
      family: textAt(os, 'family'),
      arch: textAt(os, 'arch'),
      version: textAt(os, 'version'),
    };
  const prop = child(a, 'property');
  if (prop) out.property = { property: { name: textAt(prop, 'name'), value: textAt(prop, 'value') } };
  const file = child(a, 'file');
  if (file) out.file = { exists: textAt(file, 'exists'), missing: textAt(file, 'missing') };
  return out;
}

export function mavenRequirements(pom: XmlNode) {
  const parent = child(pom, 'parent');
  return {
    maven: {
      ...(parent
        ? {
            parent: {
              system: 'MAVEN',
              name: `${textAt(parent, 'groupId')}:${textAt(parent, 'artifactId')}`,
              version: textAt(parent, 'version'),
            },
          }
        : {}),
      dependencies: deps(pom),
      dependencyManagement: deps(child(pom, 'dependencyManagement')),
      properties: properties(pom),
      repositories: repositories(pom),
      profiles: children(child(pom, 'profiles'), 'profile').map((p) => ({
        id: textAt(p, 'id'),
        ...(child(p, 'activation') ? { activation: activation(child(p, 'activation')) } : {}),
        dependencies: deps(p),
        dependencyManagement: deps(child(p, 'dependencyManagement')),
        properties: properties(p),
        repositories: repositories(p),
      })),
      registry: MAVEN_REGISTRY,
    },
  };
}

async function mavenVersion(
  version: string,
  pom: XmlNode,
  lastModified: string | null,
  load: PomLoader,
): Promise<IngestedVersion> {
  const licenses = await inherited(pom, load, (p) =>
    children(child(p, 'licenses'), 'license').map((l) => textAt(l, 'name') || textAt(l, 'url')),
  );
  const linkOf = (label: string, ...path: string[]) =>
    inherited(pom, load, (p) => (textAt(p, ...path) ? [textAt(p, ...path)] : null)).then((u) =>
      u.map((url) => ({ label, url })),
    );
  const links: Link[] = [
    ...(await linkOf('SOURCE_REPO', 'scm', 'url')),
    ...(await linkOf('ISSUE_TRACKER', 'issueManagement', 'url')),
    ...(await linkOf('HOMEPAGE', 'url')),
  ];
  const relocation = child(child(pom, 'distributionManagement'), 'relocation');
  return {
    version,
    publishedAt: isoTime(lastModified),
    deprecated: null,
    ...licenseFields(licenses),
    links,
    registries: [MAVEN_REGISTRY],
    slsaProvenances: [],
    attestations: [],
    requirements: mavenRequirements(pom),
    meta: {
      packaging: textAt(pom, 'packaging') || 'jar',
      ...(relocation
        ? {
            relocation: {
              groupId: textAt(relocation, 'groupId'),
              artifactId: textAt(relocation, 'artifactId'),
              version: textAt(relocation, 'version'),
              message: textAt(relocation, 'message'),
            },
          }
        : {}),
    },
    artifacts: [],
  };
}

const OWN_EXTENSION = new Set(['pom', 'war', 'ear', 'rar', 'aar']);

export function artifactExtension(packaging: string): string {
  return OWN_EXTENSION.has(packaging) ? packaging : 'jar';
}

/** `<hex>` or `<hex>  <file>` -> the hex digest when it has the algorithm's length; null otherwise. */
export function checksumHex(text: string, hexLength: number): string | null {
  const token = text.trim().split(/\s+/)[0] ?? '';
  return token.length === hexLength && /^[0-9a-f]+$/i.test(token) ? token.toLowerCase() : null;
}

const CHECKSUMS: [HashValue['type'], string, number][] = [
  ['SHA1', 'sha1', 40],
  ['MD5', 'md5', 32],
];

async function mavenArtifacts(
  base: string,
  group: string,
  artifact: string,
  version: string,
  packaging: string,
): Promise<Artifact[]> {
  const file = `${encodeURIComponent(artifact)}-${encodeURIComponent(version)}.${artifactExtension(packaging)}`;
  const path = `${artifactDir('', group, artifact)}/${encodeURIComponent(version)}/${file}`;
  const hashes = (
    await Promise.all(
      CHECKSUMS.map(async ([type, ext, len]) => {
        try {
          const hex = checksumHex(await fetchText(`${base}${path}.${ext}`), len);
          return hex ? [{ type, value: hexToBase64(hex) }] : [];
        } catch (err) {
          if (err instanceof UpstreamNotFound) return [];
          if (!(err instanceof UpstreamError)) throw err;
          warnUpstream('Maven checksum', err, `${path}.${ext}`);
          return [];
        }
      }),
    )
  ).flat();
  return hashes.length ? [{ url: `${MAVEN_REGISTRY.slice(0, -1)}${path}`, hashes }] : [];
}
