/**
 * The answers of the insights API as zod schemas: deps.dev's messages in proto3 JSON as this service emits
 * them (keys in proto order, absent = omitted), plus this service's own additions (marked "beyond deps.dev").
 * The bodies are built in SQL and TypeScript, not parsed through these; they exist so openapi.ts can generate
 * the 200 response schemas of the OpenAPI document, and so test/http/insights/openapi.test.ts can hold real
 * answers against the generated document. Objects are strict (an undocumented field fails that test);
 * the per-system Requirements payloads are described by their top-level fields and left open below them.
 * Every named schema is registered in RESPONSES under its component name.
 */
import * as z from 'zod';
import { SYSTEMS } from '../versions/index.ts';

export const RESPONSES = z.registry<{ id: string }>();
function named<T extends z.ZodType>(id: string, schema: T): T {
  RESPONSES.add(schema as z.ZodType, { id });
  return schema;
}

const str = z.string();
const strs = z.array(z.string());
const int = z.number().int();
const timestamp = z.string().describe('RFC 3339, UTC, whole seconds');

const SystemName = named('System', z.enum(SYSTEMS as [string, ...string[]]));
const PackageKey = named('PackageKey', z.strictObject({ system: SystemName, name: str }));
const VersionKey = named('VersionKey', z.strictObject({ system: SystemName, name: str, version: str }));
const ProjectKey = named('ProjectKey', z.strictObject({ id: str }));
const AdvisoryKey = named('AdvisoryKey', z.strictObject({ id: str }));
const Link = named('Link', z.strictObject({ label: str, url: str }));
const SlsaProvenance = named(
  'SLSAProvenance',
  z.strictObject({ sourceRepository: str, commit: str, url: str, verified: z.boolean() }),
);
const Attestation = named(
  'Attestation',
  z.strictObject({ type: str, url: str, verified: z.boolean(), sourceRepository: str, commit: str }),
);
const RelatedProject = named(
  'RelatedProject',
  z.strictObject({ projectKey: ProjectKey, relationProvenance: str, relationType: str }),
);

const packageVersion = {
  versionKey: VersionKey,
  publishedAt: timestamp.optional(),
  isDefault: z.boolean(),
  isDeprecated: z.boolean(),
  deprecatedReason: str.optional(),
};
const PackageV3 = named(
  'Package',
  z.strictObject({
    packageKey: PackageKey,
    versions: z.array(z.strictObject(packageVersion)),
  }),
);
const PackageAlpha = named(
  'PackageV3alpha',
  z.strictObject({
    packageKey: PackageKey,
    purl: str,
    versions: z.array(z.strictObject({ ...packageVersion, purl: str })),
  }),
);

const version = {
  versionKey: VersionKey,
  publishedAt: timestamp.optional(),
  isDefault: z.boolean(),
  isDeprecated: z.boolean(),
  deprecatedReason: str.optional(),
  licenses: strs,
  advisoryKeys: z.array(AdvisoryKey),
  links: z.array(Link),
  slsaProvenances: z.array(SlsaProvenance),
  attestations: z.array(Attestation),
  registries: strs,
  relatedProjects: z.array(RelatedProject),
  projectStatus: z.strictObject({ status: str, reason: str }).optional().describe('PyPI only'),
};
const VersionV3 = named('Version', z.strictObject(version));
const LicenseDetail = named(
  'LicenseDetail',
  z.strictObject({
    license: str.describe('as the registry publishes it'),
    spdx: str.describe('SPDX expression or `non-standard`'),
  }),
);
const UpstreamIdentifier = named(
  'UpstreamIdentifier',
  z.strictObject({
    packageName: str,
    versionString: str,
    source: str.describe('NPM_NPMJS_ORG, PYPI_RELEASE_FILENAME, PYPI_METADATA_FILE'),
  }),
);
const VersionAlpha = named(
  'VersionV3alpha',
  z.strictObject({
    ...version,
    purl: str,
    licenseDetails: z.array(LicenseDetail),
    upstreamIdentifiers: z.array(UpstreamIdentifier),
    cooldown: z
      .strictObject({ end: timestamp, description: str })
      .optional()
      .describe('only while the version is in its cooldown window (INSIGHTS_COOLDOWN_DAYS)'),
  }),
);

const open = (fields: string[]) => z.looseObject(Object.fromEntries(fields.map((f) => [f, z.unknown().optional()])));
const Requirements = named(
  'Requirements',
  z
    .strictObject({
      nuget: open([
        'dependencyGroups',
        'targetFrameworks',
        'developmentDependency',
        'frameworkAssemblies',
        'frameworkReferences',
      ]).optional(),
      npm: open(['dependencies', 'bundled', 'os', 'cpu']).optional(),
      maven: open([
        'parent',
        'dependencies',
        'dependencyManagement',
        'properties',
        'repositories',
        'profiles',
      ]).optional(),
      rubygems: open([
        'runtimeDependencies',
        'devDependencies',
        'platform',
        'requiredRubyVersion',
        'requiredRubygemsVersion',
      ]).optional(),
      go: open(['directDependencies', 'indirectDependencies', 'replaces', 'excludes']).optional(),
      pypi: open(['dependencies', 'providedExtras', 'externalDependencies', 'requiredPythonVersion']).optional(),
      cargo: open(['dependencies', 'features']).optional(),
    })
    .describe("exactly one member, the version's system"),
);

const Advisory = named(
  'Advisory',
  z.strictObject({
    advisoryKey: AdvisoryKey,
    url: str,
    title: str,
    aliases: strs,
    cvss3Score: z.number(),
    cvss3Vector: str,
  }),
);

const Dependencies = named(
  'Dependencies',
  z.strictObject({
    nodes: z.array(
      z.strictObject({
        versionKey: VersionKey,
        bundled: z.boolean(),
        relation: z.enum(['SELF', 'DIRECT', 'INDIRECT']),
        errors: strs,
        licenses: strs.optional().describe('beyond deps.dev: with ?include=licenses'),
        advisoryKeys: z.array(AdvisoryKey).optional().describe('beyond deps.dev: with ?include=advisories'),
      }),
    ),
    edges: z.array(z.strictObject({ fromNode: int, toNode: int, requirement: str })),
    error: str,
    advisories: z.array(Advisory).optional().describe('beyond deps.dev: with ?include=advisories'),
  }),
);

const Project = named(
  'Project',
  z.strictObject({
    projectKey: ProjectKey,
    openIssuesCount: int,
    starsCount: int,
    forksCount: int,
    license: str,
    description: str,
    homepage: str,
    scorecard: z.looseObject({}).optional(),
    ossFuzz: z.looseObject({}).optional(),
  }),
);
const ProjectPackageVersions = named(
  'ProjectPackageVersions',
  z.strictObject({
    versions: z.array(
      z.strictObject({
        versionKey: VersionKey,
        relationType: str,
        relationProvenance: str,
        slsaProvenances: z.array(SlsaProvenance),
        attestations: z.array(Attestation),
      }),
    ),
  }),
);

const QueryResultV3 = named(
  'QueryResult',
  z.strictObject({
    results: z.array(z.strictObject({ version: VersionV3 })),
  }),
);
const QueryResultAlpha = named(
  'QueryResultV3alpha',
  z.strictObject({
    results: z.array(z.strictObject({ version: VersionAlpha, artifacts: z.array(z.strictObject({ url: str })) })),
  }),
);

const Dependents = named(
  'Dependents',
  z.strictObject({
    dependentCount: int,
    directDependentCount: int,
    indirectDependentCount: int,
    dependents: z
      .array(z.strictObject({ versionKey: VersionKey, relation: z.enum(['DIRECT', 'INDIRECT']) }))
      .optional()
      .describe('beyond deps.dev: with ?list=true'),
    nextPageToken: str.optional().describe('beyond deps.dev: with ?list=true; "" on the last page'),
  }),
);
const Capabilities = named(
  'Capabilities',
  z.strictObject({
    capabilities: z.array(z.strictObject({ capability: str, directCount: int, indirectCount: int })),
  }),
);
const SimilarlyNamedPackages = named(
  'SimilarlyNamedPackages',
  z.strictObject({
    packageKey: PackageKey,
    packages: z.array(z.strictObject({ packageKey: PackageKey })),
  }),
);

const Finding = named(
  'Finding',
  z.strictObject({
    type: z.enum(['NOT_FOUND', 'MALICIOUS', 'DEPRECATED', 'COOLDOWN', 'LOW_USAGE', 'VULNERABLE', 'REMEDIATION']),
    risk: z.enum(['RISK_CRITICAL', 'RISK_HIGH', 'RISK_MEDIUM', 'RISK_LOW', 'RISK_INFORMATIONAL']),
    deprecatedContext: z.strictObject({ reason: str }).optional(),
    cooldownContext: z.strictObject({ end: timestamp }).optional(),
    lowUsageContext: z.strictObject({ alternativePackages: strs }).optional(),
  }),
);
const FindingsVersion = named(
  'Findings.Version',
  z.strictObject({
    versionKey: VersionKey,
    isDefault: z.boolean(),
    findings: z.array(Finding),
    cooldownEnd: timestamp.optional(),
  }),
);
const findingsTail = {
  recommendedVersions: z.array(FindingsVersion),
  requestedVersion: FindingsVersion.optional(),
  defaultVersion: FindingsVersion.optional(),
  packageFindings: z.array(Finding),
};
const Findings = named(
  'Findings',
  z.union([
    z.strictObject({ versionKey: VersionKey, ...findingsTail }),
    z.strictObject({ packageKey: PackageKey, ...findingsTail }),
  ]),
);

const PurlLookupResult = named(
  'PurlLookupResult',
  z.union([z.strictObject({ package: PackageAlpha }), z.strictObject({ version: VersionAlpha })]),
);
const ContainerImages = named(
  'QueryContainerImagesResult',
  z.strictObject({
    results: z.array(
      z.strictObject({
        repository: str,
        registry: str,
        dockerMetadata: z
          .strictObject({
            dateRegistered: timestamp.optional(),
            lastUpdated: timestamp.optional(),
            starCount: str.describe('int64 as a string'),
            pullCount: str.describe('int64 as a string'),
            isOfficial: z.boolean(),
          })
          .optional(),
      }),
    ),
  }),
);

const page = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject({
    responses: z.array(z.strictObject({ request: z.unknown().describe('the request as sent'), ...shape })),
    nextPageToken: str.describe('"" on the last page'),
  });
const VersionBatch = named('VersionBatch', page({ version: VersionAlpha.optional() }));
const PurlLookupBatch = named(
  'PurlLookupBatchResult',
  page({ result: z.strictObject({ version: VersionAlpha }).optional() }),
);
const ProjectBatch = named('ProjectBatch', page({ project: Project.optional() }));
const FindingsBatch = named('FindingsBatch', page({ findings: Findings }));
const OpenApi = named('OpenAPI', z.looseObject({ openapi: z.literal('3.1.0'), paths: z.looseObject({}) }));

/** The 200 answer of each operation, by operation summary (v3 / v3alpha where they differ). */
export const RESPONSE_OF = {
  GetPackage: { v3: PackageV3, v3alpha: PackageAlpha },
  GetVersion: { v3: VersionV3, v3alpha: VersionAlpha },
  GetRequirements: Requirements,
  GetDependencies: Dependencies,
  GetProject: Project,
  GetProjectPackageVersions: ProjectPackageVersions,
  GetAdvisory: Advisory,
  Query: { v3: QueryResultV3, v3alpha: QueryResultAlpha },
  GetDependents: Dependents,
  GetCapabilities: Capabilities,
  Findings,
  GetSimilarlyNamedPackages: SimilarlyNamedPackages,
  PurlLookup: PurlLookupResult,
  QueryContainerImages: ContainerImages,
  GetVersionBatch: VersionBatch,
  PurlLookupBatch,
  GetProjectBatch: ProjectBatch,
  FindingsBatch,
  OpenAPI: OpenApi,
} as const;
