/**
 * SLSA provenances and publish attestations: read, never verified.
 *
 * npm: a version whose packument `dist.attestations` is `{url, provenance: {predicateType}}` has an
 * attestations document at that URL (`https://registry.npmjs.org/-/npm/v1/attestations/<name>@<v>`,
 * fetched through NPM_REGISTRY_URL like tarballs): `{attestations: [{predicateType, bundle:
 * {dsseEnvelope: {payload, payloadType}, verificationMaterial}}]}`. Each payload is a base64
 * in-toto statement. SLSA statements (`https://slsa.dev/provenance/v0.2`, `/v1`) give the source
 * repository and commit:
 *   v1   predicate.buildDefinition.externalParameters.workflow.repository, and the gitCommit digest
 *        of the resolvedDependencies entry for that repository (else the first with a gitCommit,
 *        whose uri, `git+` and `@ref` stripped, is then the repository too);
 *   v0.2 predicate.invocation.configSource.uri (`git+https://host/o/r@refs/...`) and its
 *        digest.sha1 (else materials[0]).
 * npm's own publish attestation (`https://github.com/npm/attestation/tree/main/specs/publish/v0.1`)
 * names no source and is not a deps.dev Attestation type, so it is skipped.
 *
 * PyPI (PEP 740): the integrity API `GET {PYPI_URL}/integrity/{project}/{version}/{filename}/provenance`
 * answers `{attestation_bundles: [{publisher: {kind, repository, ...}, attestations: [{envelope:
 * {statement (base64 in-toto)}}]}]}`; the statement's predicateType is
 * `https://docs.pypi.org/attestations/publish/v1` and the repository comes from the Trusted
 * Publisher (`kind` GitHub/GitLab, `repository` "owner/name"). The commit is only in the Sigstore
 * certificate's extensions (not parsed), so it stays "".
 *
 * `verified` is false here: the Sigstore bundles are verified later, off the request path
 * (src/insights/attestation-checks.ts), and the answers show that check's verdict once it has run.
 * An npm document is kept as read (`document`) for that check, so it is not fetched twice.
 * `url` is the attestation document's public URL.
 *
 * Both documents are parsed with a schema of the parts read (NpmAttestationsDoc, PypiProvenance): one
 * that does not fit is an UpstreamError naming the document and the field. The in-toto statement inside
 * is signed content and is read by shape (`Statement`, `SlsaPredicate`): a part of another shape names
 * no source, as before.
 */
import * as z from 'zod';
import type { UpstreamEnv } from './http.ts';
import type { Attestation, SlsaProvenance } from './types.ts';
import { parseUpstream } from './upstream-doc.ts';
import { insightsConfig } from '../config.ts';

const text = z.string().nullish();
/** npm's attestations document: each attestation's predicate type and its bundle's DSSE payload. */
export const NpmAttestationsDoc = z.looseObject({
  attestations: z
    .array(
      z.looseObject({
        predicateType: text,
        bundle: z.looseObject({ dsseEnvelope: z.looseObject({ payload: text }).nullish() }).nullish(),
      }),
    )
    .nullish(),
});
export type NpmAttestationsDoc = z.output<typeof NpmAttestationsDoc>;
/** A PEP 740 attestation: its envelope and the verification material its Sigstore bundle is built from. */
const Pep740Attestation = z.looseObject({
  envelope: z.looseObject({ statement: text, signature: text }).nullish(),
  verification_material: z
    .looseObject({ certificate: text, transparency_entries: z.array(z.unknown()).nullish() })
    .nullish(),
});
export type Pep740Attestation = z.output<typeof Pep740Attestation>;
const Publisher = z.looseObject({ kind: text, repository: text, workflow: text, email: text });
export type Publisher = z.output<typeof Publisher>;
/** The integrity API's provenance object: bundles of a Trusted Publisher and its attestations. */
export const PypiProvenance = z.looseObject({
  attestation_bundles: z
    .array(z.looseObject({ publisher: Publisher.nullish(), attestations: z.array(Pep740Attestation).nullish() }))
    .nullish(),
});
export type PypiProvenance = z.output<typeof PypiProvenance>;

/** meta key of a version whose attestations could not be read (the failure, as failureOf names it): unknown, not none. */
export const ATTESTATIONS_ERROR = 'attestationsError';

export const SLSA_TYPES = ['https://slsa.dev/provenance/v0.2', 'https://slsa.dev/provenance/v1'];
export const PYPI_PUBLISH_V1 = 'https://docs.pypi.org/attestations/publish/v1';

export interface Statement {
  predicateType?: unknown;
  predicate?: unknown;
  subject?: unknown;
  [k: string]: unknown;
}

/** A source as SLSA names one (v1 resolvedDependencies, v0.2 configSource and materials). */
interface SourceRef {
  uri?: unknown;
  digest?: { gitCommit?: unknown; sha1?: unknown } | null;
}
/** The parts of a SLSA predicate (v1 and v0.2) read here and by verify-npm.ts; any may be of another shape. */
export interface SlsaPredicate {
  buildDefinition?: {
    externalParameters?: { workflow?: { repository?: unknown } | null } | null;
    internalParameters?: { github?: { repository_id?: unknown } | null } | null;
    resolvedDependencies?: unknown;
  } | null;
  invocation?: { configSource?: SourceRef | null; environment?: { GITHUB_REPOSITORY_ID?: unknown } | null } | null;
  materials?: unknown;
}

/** A statement's predicate, read by shape: every access is optional, so a part of another shape reads as absent. */
export function predicateOf(stmt: Statement): SlsaPredicate {
  return (stmt.predicate ?? {}) as SlsaPredicate;
}

/** Base64 (standard or URL alphabet) in-toto statement -> object; null when it is not JSON. */
export function decodeStatement(b64: unknown): Statement | null {
  if (typeof b64 !== 'string') return null;
  try {
    const bin = atob(b64.replace(/-/g, '+').replace(/_/g, '/').replace(/\s+/g, ''));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const v = JSON.parse(new TextDecoder().decode(bytes));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Statement) : null;
  } catch {
    return null;
  }
}

/** `git+https://github.com/o/r@refs/tags/v1` -> `https://github.com/o/r`. */
export function repositoryFromUri(uri: string): string {
  let s = uri.trim().replace(/^git\+/, '');
  const scheme = s.indexOf('://');
  const path = s.indexOf('/', scheme < 0 ? 0 : scheme + 3); // a ref's `@` comes after the host (userinfo's before it)
  const at = path < 0 ? -1 : s.indexOf('@', path);
  if (at > 0) s = s.slice(0, at);
  return s.replace(/\.git$/, '');
}

function str(x: unknown): string {
  return typeof x === 'string' ? x : '';
}

/** Source repository and commit of a SLSA provenance statement; null for other predicate types. */
export function slsaSource(stmt: Statement): { type: string; sourceRepository: string; commit: string } | null {
  const type = str(stmt.predicateType);
  if (!SLSA_TYPES.includes(type)) return null;
  const p = predicateOf(stmt);
  if (type.endsWith('/v1')) {
    const resolved = p.buildDefinition?.resolvedDependencies;
    const deps: (SourceRef | null)[] = Array.isArray(resolved) ? resolved : [];
    let repo = str(p.buildDefinition?.externalParameters?.workflow?.repository);
    const withCommit = deps.filter(
      (d): d is { uri: string; digest: { gitCommit: string } } =>
        typeof d?.digest?.gitCommit === 'string' && typeof d?.uri === 'string',
    );
    const dep = (repo && withCommit.find((d) => repositoryFromUri(d.uri) === repositoryFromUri(repo))) || withCommit[0];
    if (!repo && dep) repo = repositoryFromUri(dep.uri);
    return { type, sourceRepository: repo, commit: dep ? str(dep.digest.gitCommit) : '' };
  }
  const cfg = p.invocation?.configSource;
  const material: SourceRef | null | undefined = Array.isArray(p.materials) ? p.materials[0] : undefined;
  const src = typeof cfg?.uri === 'string' ? cfg : material;
  return { type, sourceRepository: src?.uri ? repositoryFromUri(str(src.uri)) : '', commit: str(src?.digest?.sha1) };
}

export interface ReadAttestations {
  slsaProvenances: SlsaProvenance[];
  attestations: Attestation[];
  /** The document as read, for its verification (attestation-checks.ts). */
  document?: unknown;
}

/** The SLSA entries of an npm attestations document, `url` being where it was published. */
export function npmAttestationsFromDocument(doc: unknown, url: string): ReadAttestations {
  const out: ReadAttestations = { slsaProvenances: [], attestations: [], document: doc };
  for (const a of parseUpstream(NpmAttestationsDoc, doc, url).attestations ?? []) {
    const stmt = decodeStatement(a?.bundle?.dsseEnvelope?.payload);
    const src = stmt && slsaSource(stmt);
    if (!src) continue;
    out.slsaProvenances.push({ sourceRepository: src.sourceRepository, commit: src.commit, url, verified: false });
    out.attestations.push({
      type: src.type,
      url,
      verified: false,
      sourceRepository: src.sourceRepository,
      commit: src.commit,
    });
  }
  return out;
}

const PUBLISHER_HOSTS: Record<string, string> = { github: 'https://github.com/', gitlab: 'https://gitlab.com/' };

/** The publish attestations of one PyPI provenance object (integrity API answer). */
export function pypiAttestationsFromProvenance(doc: unknown, url: string): Attestation[] {
  const out: Attestation[] = [];
  for (const b of parseUpstream(PypiProvenance, doc, url).attestation_bundles ?? []) {
    const host = PUBLISHER_HOSTS[str(b.publisher?.kind).toLowerCase()];
    const repo = str(b.publisher?.repository);
    for (const a of b.attestations ?? []) {
      const stmt = decodeStatement(a?.envelope?.statement);
      if (!stmt || stmt.predicateType !== PYPI_PUBLISH_V1) continue;
      out.push({
        type: PYPI_PUBLISH_V1,
        url,
        verified: false,
        sourceRepository: host && repo ? host + repo : '',
        commit: '',
      });
    }
  }
  return out;
}

export function npmAttestationsEnabled(env: UpstreamEnv): boolean {
  return insightsConfig(env).INSIGHTS_NPM_ATTESTATIONS;
}
