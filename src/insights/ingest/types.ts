/**
 * The normalised form every ingestion adapter produces (one per upstream protocol) and the store
 * consumes. Adapters do no database work: `fetchPackage(env, system, name)` returns an
 * `IngestedPackage`, so a resolver can pull a missing package on demand with the same code.
 */
import type { System } from '../../versions/index.ts';

export type { System };

export interface Link {
  label: string;
  url: string;
}

export interface HashValue {
  /** MD5 | SHA1 | SHA256 | SHA512 */
  type: string;
  /** base64 of the digest bytes */
  value: string;
}

export interface Artifact {
  url: string;
  hashes: HashValue[];
}

export interface SlsaProvenance {
  sourceRepository: string;
  commit: string;
  url: string;
  verified: boolean;
}

export interface Attestation {
  type: string;
  url: string;
  verified: boolean;
  sourceRepository: string;
  commit: string;
}

/** v3alpha Version.licenseDetails entry: the licence as the registry publishes it and its SPDX reading. */
export interface LicenseDetail {
  license: string;
  /** A canonical SPDX expression, or `non-standard` (the same reading as `licenses[]`). */
  spdx: string;
}

/** v3alpha Version.upstreamIdentifiers entry: a spelling of the name and version the upstream used. */
export interface UpstreamIdentifier {
  packageName: string;
  versionString: string;
  /** NPM_NPMJS_ORG, PYPI_RELEASE_FILENAME, PYPI_METADATA_FILE (deps.dev's source names). */
  source: string;
}

export interface IngestedVersion {
  /** The registry's own spelling. */
  version: string;
  publishedAt: string | null;
  /** null when not deprecated; the reason text ('' allowed) otherwise. */
  deprecated: string | null;
  licenses: string[];
  /** v3alpha: each licence text as published (stored in insights.version_details, migration 0170). */
  licenseDetails?: LicenseDetail[];
  /** v3alpha: the upstream's own spellings; absent = none recorded (deps.dev has them for npm and PyPI). */
  upstreamIdentifiers?: UpstreamIdentifier[];
  links: Link[];
  registries: string[];
  slsaProvenances: SlsaProvenance[];
  attestations: Attestation[];
  /** deps.dev `Requirements` message (one system key), or null when not known. */
  requirements: Record<string, unknown> | null;
  meta: Record<string, unknown>;
  artifacts: Artifact[];
  projectStatus?: { status: string; reason: string } | null;
  /** Pre-release / yanked / unlisted versions never become the default. */
  excludeFromDefault?: boolean;
}

export interface IngestedPackage {
  system: System;
  /** Canonical name. */
  name: string;
  versions: IngestedVersion[];
  /** Upstream's explicit default (npm dist-tag `latest`), if any. */
  defaultVersion?: string;
  distTags?: Record<string, string>;
  /**
   * Read for dependency resolution only: every version is listed, but versions whose `meta.pending`
   * is true lack their metadata (PyPI: fetched per version, on demand). Stored with a NULL
   * `fetched_at`, which the package routes read through as if the package were unknown.
   */
  partial?: boolean;
}

/** The upstream says the package (or version) does not exist. */
export class UpstreamNotFound extends Error {
  /** The upstream's HTTP status (404, 410; 403 where a registry answers it for a name it does not serve). */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'UpstreamNotFound';
    this.status = status;
  }
}

/** The upstream failed (network, 5xx, malformed document). */
export class UpstreamError extends Error {
  /** The upstream's HTTP status; undefined for a network error, a timeout or a malformed document. */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'UpstreamError';
    this.status = status;
  }
}
