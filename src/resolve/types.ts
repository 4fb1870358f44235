/**
 * The resolver contract (pure): a Client answers "which versions does a package have" and "what
 * does a version require"; resolvers turn that into a Graph. Attributes follow deps.dev's
 * util/resolve vocabulary (version attrs: blocked, deleted, tags, derivedfrom, registries, ...;
 * dependency attrs: dev, opt, test, scope, knownas, environment, enableddependencies, maven*),
 * with lower-case keys and string values ('' for flags).
 */
import type { RawPom } from './maven-model.ts';

export type ResolveSystem = 'NPM' | 'CARGO' | 'MAVEN' | 'PYPI' | 'GO' | 'RUBYGEMS' | 'NUGET';

export type Attrs = Record<string, string>;

export interface VersionInfo {
  readonly name: string;
  readonly version: string;
  readonly attrs: Attrs;
}

export interface Dependency {
  readonly name: string;
  readonly requirement: string;
  readonly attrs: Attrs;
}

export interface Client {
  /** Every known version of a package (including blocked/deleted ones, marked by attrs). */
  versions(name: string): Promise<readonly VersionInfo[]>;
  /** Requirements of one concrete version, in declaration order; null when the version is unknown. */
  requirements(name: string, version: string): Promise<readonly Dependency[] | null>;
  /**
   * Maven: a version's POM as declared (version as written by the referring POM, or canonical); when a
   * client has it, the Maven resolver builds each POM's effective model itself (maven-model.ts) instead
   * of reading `requirements`.
   */
  pom?(name: string, version: string): Promise<RawPom | null>;
  /** Optional hint: the resolver will soon ask about these packages (batching clients prefetch). */
  prefetch?(names: readonly string[]): Promise<void>;
}

export interface NodeError {
  readonly requirement: string;
  readonly name: string;
  readonly message: string;
}

export interface GraphNode {
  name: string;
  version: string;
  bundled: boolean;
  errors: NodeError[];
}

export interface GraphEdge {
  from: number;
  to: number;
  requirement: string;
  attrs: Attrs;
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  error: string;
}

export const has = (a: Attrs, key: string): boolean => Object.hasOwn(a, key);
