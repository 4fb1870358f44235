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
import { HttpError } from '../platform/errors.ts';
import type { ResolveOptions, ResolveSystem } from '../resolve/index.ts';
import { DEFAULT_NPM_ENV } from '../resolve/npm-pick.ts';
import { PYTHON_ENV, type PythonEnv } from '../resolve/pypi-markers.ts';
import { DEFAULT_RUBY_VERSION, RUBY_PLATFORM } from '../resolve/rubygems.ts';
import { DEFAULT_NUGET_FRAMEWORK } from '../resolve/nuget.ts';

export interface ResolveTarget {
  nodeVersion: string;
  pythonVersion: string;
  javaVersion: string;
  rubyVersion: string;
  nugetFramework: string;
}

export const DEFAULT_JAVA_VERSION = '17.0.15';
const JAVA_VERSION = /^\d{1,3}(\.\d{1,3}){0,3}([._+-][0-9A-Za-z.]{1,20})?$/;

const FULL_VERSION = /^\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export function resolveTarget(env: Record<string, unknown>): ResolveTarget {
  const node = String(env.RESOLVE_NODE_VERSION ?? '').trim().replace(/^v/, '') || DEFAULT_NPM_ENV.nodeVersion;
  const python = String(env.RESOLVE_PYTHON_VERSION ?? '').trim() || PYTHON_ENV.python_full_version!;
  if (!FULL_VERSION.test(node)) throw new HttpError(500, 'RESOLVE_NODE_VERSION must be a full Node version such as 22.12.0');
  if (!FULL_VERSION.test(python)) throw new HttpError(500, 'RESOLVE_PYTHON_VERSION must be a full Python version such as 3.11.7');
  const java = String(env.RESOLVE_JAVA_VERSION ?? '').trim() || DEFAULT_JAVA_VERSION;
  if (!JAVA_VERSION.test(java)) throw new HttpError(500, 'RESOLVE_JAVA_VERSION must be a Java version such as 17.0.15');
  const ruby = String(env.RESOLVE_RUBY_VERSION ?? '').trim() || DEFAULT_RUBY_VERSION;
  if (!FULL_VERSION.test(ruby)) throw new HttpError(500, 'RESOLVE_RUBY_VERSION must be a full Ruby version such as 3.1.2');
  const framework = String(env.RESOLVE_NUGET_FRAMEWORK ?? '').trim().toLowerCase() || DEFAULT_NUGET_FRAMEWORK;
  if (!/^net(coreapp|standard)?\d+(\.\d+){0,3}$/.test(framework)) throw new HttpError(500, 'RESOLVE_NUGET_FRAMEWORK must be a target framework such as net8.0');
  return { nodeVersion: node, pythonVersion: python, javaVersion: java, rubyVersion: ruby, nugetFramework: framework };
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
  return Object.freeze({ ...PYTHON_ENV, python_version: `${major}.${minor}`, python_full_version: version, implementation_version: version });
}

export function resolveOptions(t: ResolveTarget): ResolveOptions {
  return { npm: { nodeVersion: t.nodeVersion }, pypi: { env: pythonEnv(t.pythonVersion), resolvelib: '1.0' }, maven: { target: { javaVersion: t.javaVersion } },
    rubygems: { rubyVersion: t.rubyVersion }, nuget: { framework: t.nugetFramework } };
}
