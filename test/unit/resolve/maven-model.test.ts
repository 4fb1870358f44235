/**
 * The effective model (src/resolve/maven-model.ts) on small hand-made POM sets: inheritance order,
 * interpolation, imported BOMs, managed versions, profiles, relocation and the errors Maven reports.
 * The differential check against Maven itself is test/http/insights/dependencies/e2e-maven.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { interpolate } from '../../../src/resolve/maven-interpolate.ts';
import { MavenModels, type PomDependency, type RawPom } from '../../../src/resolve/maven-model.ts';
import { dep, pom } from './maven-poms.ts';
import { activeProfiles } from '../../../src/resolve/maven-profiles.ts';

function models(...poms: RawPom[]): MavenModels {
  const byKey = new Map(poms.map((p) => [`${p.name}:${p.version}`, p]));
  return new MavenModels(async (n, v) => byKey.get(`${n}:${v}`) ?? null);
}

const brief = (ds: PomDependency[]) => ds.map((d) => `${d.name}:${d.version}${d.scope ? `:${d.scope}` : ''}`);

describe('effective model', () => {
  it('inherits properties and dependencies child first, and interpolates against the child', async () => {
    const m = await models(
      pom('g:parent', '1', {
        properties: [
          { name: 'lib.version', value: '1.0' },
          { name: 'x', value: 'parent' },
        ],
        dependencies: [dep('g:from-parent', '${project.version}'), dep('g:shared', '1')],
      }),
      pom('g:child', '2.0', {
        parent: { name: 'g:parent', version: '1' },
        properties: [{ name: 'x', value: '${lib.version}-child' }],
        dependencies: [
          dep('g:lib', '${lib.version}'),
          dep('g:shared', '${x}'),
          dep('${project.groupId}:self', '${project.parent.version}'),
        ],
      }),
    ).effective('g:child', '2.0');
    expect(brief(m!.dependencies)).toEqual(['g:lib:1.0', 'g:shared:1.0-child', 'g:self:1', 'g:from-parent:2.0']);
    expect(m!.errors).toEqual([]);
  });

  it('takes versions and scopes from management, own entries before imported BOMs, first import first', async () => {
    const m = await models(
      pom('b:inner', '1', { dependencyManagement: [dep('x:c', '3.0'), dep('x:d', '4.0')] }),
      pom('b:bom1', '1', {
        dependencyManagement: [dep('x:a', '1.1'), dep('b:inner', '1', { scope: 'import', type: 'pom' })],
      }),
      pom('b:bom2', '1', {
        dependencyManagement: [dep('x:a', '9.9'), dep('x:b', '2.2', { scope: 'runtime' }), dep('x:d', '9.9')],
      }),
      pom('g:root', '1', {
        dependencyManagement: [
          dep('x:b', '2.0'),
          dep('b:bom1', '1', { scope: 'import', type: 'pom' }),
          dep('b:bom2', '1', { scope: 'import', type: 'pom' }),
        ],
        dependencies: [dep('x:a'), dep('x:b'), dep('x:c'), dep('x:d', '', { scope: 'test' })],
      }),
    ).effective('g:root', '1');
    expect(brief(m!.dependencies)).toEqual(['x:a:1.1', 'x:b:2.0', 'x:c:3.0', 'x:d:4.0:test']);
    expect(m!.management.map((d) => d.name)).toEqual(['x:b', 'x:a', 'x:c', 'x:d']);
  });

  it('reports what Maven cannot build: a missing parent, a missing version, an undefined property', async () => {
    const a = await models(pom('g:a', '1', { parent: { name: 'g:gone', version: '1' } })).effective('g:a', '1');
    expect(a!.errors.join()).toMatch(/non-resolvable parent POM g:gone:1/);
    const b = await models(pom('g:b', '1', { dependencies: [dep('x:y'), dep('x:z', '${nope}')] })).effective(
      'g:b',
      '1',
    );
    expect(b!.errors).toHaveLength(2);
    expect(b!.errors.join()).toMatch(/version' for x:y:jar is missing/);
    expect(b!.errors.join()).toMatch(/\$\{nope\}/);
    expect(await models().effective('g:none', '1')).toBeNull();
  });

  it('applies active profiles (activeByDefault only when nothing else is active) and reads relocations', async () => {
    const m = await models(
      pom('g:p', '1', {
        profiles: [
          {
            id: 'def',
            activation: { activeByDefault: 'true' },
            dependencies: [dep('x:default', '1')],
            dependencyManagement: [],
            properties: [],
          },
          {
            id: 'old',
            activation: { jdk: { jdk: '1.8' } },
            dependencies: [dep('x:old', '1')],
            dependencyManagement: [],
            properties: [],
          },
        ],
        relocation: { groupId: 'g2', artifactId: '', version: '' },
      }),
    ).effective('g:p', '1');
    expect(brief(m!.dependencies)).toEqual(['x:default:1']);
    expect(m!.relocation).toEqual({ name: 'g2:p', version: '1' });
    const jdk = activeProfiles(
      [{ activation: { jdk: { jdk: '[11,)' } } }, { activation: { activeByDefault: 'true' } }],
      { javaVersion: '17.0.15' },
    );
    expect(jdk).toHaveLength(1);
  });

  it('interpolates recursively and leaves cycles and unknown expressions as written', () => {
    const props: Record<string, string> = { a: '${b}', b: 'x${c}', c: '1', loop: '${loop}' };
    expect(interpolate('${a}-${d}', (e) => props[e])).toBe('x1-${d}');
    expect(interpolate('${loop}', (e) => props[e])).toBe('${loop}');
  });
});
