/** Hand-made declared POMs for the Maven unit tests (the shapes src/resolve/maven-model.ts reads). */
import type { PomDependency, RawPom } from '../../../src/resolve/maven-model.ts';

export const dep = (name: string, version = '', more: Partial<PomDependency> = {}): PomDependency => ({
  name,
  version,
  classifier: '',
  type: 'jar',
  scope: '',
  optional: '',
  exclusions: [],
  ...more,
});

export function pom(name: string, version: string, more: Partial<RawPom> = {}): RawPom {
  return {
    name,
    version,
    packaging: 'jar',
    dependencies: [],
    dependencyManagement: [],
    properties: [],
    profiles: [],
    ...more,
  };
}
