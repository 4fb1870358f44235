/**
 * The environment graphs are resolved for, from configuration: RESOLVE_NODE_VERSION (npm `engines`;
 * default the resolver's Node 22 release) and RESOLVE_PYTHON_VERSION (a full CPython version such as
 * `3.11.7`: PEP 508 markers and Requires-Python; default the resolver's CPython 3.12 release) and
 * RESOLVE_JAVA_VERSION (the `java.version` Maven runs on: POM profiles activated by `jdk` or by that
 * property; default 17.0.15), RESOLVE_RUBY_VERSION (the Ruby Bundler locks on: required_ruby_version; default
 * 3.1.2, Debian bookworm's) and RESOLVE_NUGET_FRAMEWORK (the project's target framework; default net8.0), always on
 * linux x86_64 with glibc (npm os/cpu/libc, markers, Cargo cfg). A cached graph records the target it
 * was computed for (`targetKey`), so changing the configuration recomputes graphs instead of serving
 * ones built for another interpreter.
 */
import type { ResolveOptions, ResolveSystem } from '../resolve/index.ts';
import { PYTHON_ENV, type PythonEnv } from '../resolve/pypi-markers.ts';
import { RUBY_PLATFORM } from '../resolve/rubygems.ts';
import { insightsConfig } from './config.ts';

export interface ResolveTarget {
  nodeVersion: string;
  pythonVersion: string;
  javaVersion: string;
  rubyVersion: string;
  nugetFramework: string;
}

export function resolveTarget(env: Record<string, unknown>): ResolveTarget {
  const cfg = insightsConfig(env);
  return {
    nodeVersion: cfg.RESOLVE_NODE_VERSION,
    pythonVersion: cfg.RESOLVE_PYTHON_VERSION,
    javaVersion: cfg.RESOLVE_JAVA_VERSION,
    rubyVersion: cfg.RESOLVE_RUBY_VERSION,
    nugetFramework: cfg.RESOLVE_NUGET_FRAMEWORK,
  };
}

/** What of the target a system's graph depends on ('' when nothing). */
export function targetKey(system: ResolveSystem, t: ResolveTarget): string {
  if (system === 'NPM') return `node ${t.nodeVersion}`;
  if (system === 'PYPI') return `python ${t.pythonVersion}`;
  if (system === 'MAVEN') return `java ${t.javaVersion}`;
  if (system === 'RUBYGEMS') return `ruby ${t.rubyVersion} ${RUBY_PLATFORM}`;
  if (system === 'NUGET') return `framework ${t.nugetFramework}`;
  return '';
}

/** PEP 508 marker environment of CPython `version` on linux x86_64. */
export function pythonEnv(version: string): PythonEnv {
  const [major, minor] = version.split('.');
  return Object.freeze({
    ...PYTHON_ENV,
    python_version: `${major}.${minor}`,
    python_full_version: version,
    implementation_version: version,
  });
}

export function resolveOptions(t: ResolveTarget): ResolveOptions {
  return {
    npm: { nodeVersion: t.nodeVersion },
    pypi: { env: pythonEnv(t.pythonVersion), resolvelib: '1.0' },
    maven: { target: { javaVersion: t.javaVersion } },
    rubygems: { rubyVersion: t.rubyVersion },
    nuget: { framework: t.nugetFramework },
  };
}
