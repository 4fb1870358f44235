/**
 * Capslock's capability names for a Go module version, from its source zip (the Go proxy's
 * `{module}@{version}/...` layout), by an import-and-reference analysis, not Capslock's:
 * - Capslock builds the call graph of the packages (with their dependencies) and reports a capability
 *   when some path of calls reaches a standard-library function its curated list assigns one
 *   (`interesting.cm`), counting functions that reach it directly or through others.
 * - Here each non-test `.go` file of the module itself (not `testdata/`, `vendor/`, nor a nested
 *   module with its own go.mod) is read lexically: its imports, then every `pkg.Name` it writes for an
 *   imported package (comments and string literals removed first). A reference is mapped through the
 *   table below (a few standard packages name the capability per function; the others per package); a
 *   package imported for its side effects (`_`) counts once. `directCount` = the distinct (file,
 *   reference) pairs with that capability. Nothing is followed through the module's own functions or its
 *   dependencies, so `indirectCount` is always 0, unreachable code counts, build tags are ignored (every
 *   GOOS file counts) and a capability reached through a dependency is not reported. It answers "which
 *   capabilities does this module's own source touch", an over-approximation of Capslock's direct set.
 */
import { readZipEntry, zipEntries } from './ingest/zip.ts';

/** Capslock's Capability enum, in its order (the answer is sorted by it). */
export const CAPABILITIES = [
  'CAPABILITY_UNSPECIFIED',
  'CAPABILITY_SAFE',
  'CAPABILITY_FILES',
  'CAPABILITY_NETWORK',
  'CAPABILITY_RUNTIME',
  'CAPABILITY_READ_SYSTEM_STATE',
  'CAPABILITY_MODIFY_SYSTEM_STATE',
  'CAPABILITY_OPERATING_SYSTEM',
  'CAPABILITY_SYSTEM_CALLS',
  'CAPABILITY_ARBITRARY_EXECUTION',
  'CAPABILITY_CGO',
  'CAPABILITY_UNANALYZED',
  'CAPABILITY_UNSAFE_POINTER',
  'CAPABILITY_REFLECT',
  'CAPABILITY_EXEC',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const words = (s: string) => s.split(/\s+/).filter(Boolean);
const FILES = 'CAPABILITY_FILES';
const READ = 'CAPABILITY_READ_SYSTEM_STATE';
const MODIFY = 'CAPABILITY_MODIFY_SYSTEM_STATE';
const RUNTIME = 'CAPABILITY_RUNTIME';

/** Per-function capabilities of a package (names not listed: `fallback`, or none). */
interface PackageRule {
  fallback?: Capability;
  by?: Record<string, Capability>;
}

function byName(groups: [Capability, string][]): Record<string, Capability> {
  return Object.fromEntries(groups.flatMap(([cap, names]) => words(names).map((n) => [n, cap])));
}

const NETWORK: PackageRule = { fallback: 'CAPABILITY_NETWORK' };
const RULES: Record<string, PackageRule> = {
  os: {
    by: byName([
      [
        FILES,
        `Open OpenFile Create ReadFile WriteFile Remove RemoveAll Mkdir MkdirAll MkdirTemp CreateTemp Rename
        ReadDir Stat Lstat Chmod Chown Lchown Chtimes Truncate Symlink Link Readlink DirFS CopyFS NewFile
        Stdin Stdout Stderr`,
      ],
      [
        READ,
        `Getenv LookupEnv Environ ExpandEnv Hostname Getwd Getpid Getppid Getuid Geteuid Getgid Getegid
        Getgroups Executable UserHomeDir UserCacheDir UserConfigDir TempDir Getpagesize Args`,
      ],
      [MODIFY, 'Setenv Unsetenv Clearenv Chdir'],
      ['CAPABILITY_EXEC', 'StartProcess FindProcess'],
      ['CAPABILITY_OPERATING_SYSTEM', 'Exit'],
    ]),
  },
  'io/ioutil': { by: byName([[FILES, 'ReadFile WriteFile ReadDir TempFile TempDir']]) },
  'path/filepath': {
    by: byName([
      [FILES, 'Walk WalkDir Glob EvalSymlinks'],
      [READ, 'Abs'],
    ]),
  },
  'os/exec': { fallback: 'CAPABILITY_EXEC' },
  'os/signal': { fallback: 'CAPABILITY_OPERATING_SYSTEM' },
  'os/user': { fallback: READ },
  net: NETWORK,
  'net/rpc': NETWORK,
  'net/smtp': NETWORK,
  'net/http/httputil': NETWORK,
  'net/http/pprof': NETWORK,
  'net/http/cookiejar': NETWORK,
  'crypto/tls': NETWORK,
  'net/http': {
    fallback: 'CAPABILITY_NETWORK',
    by: byName([
      [
        'CAPABILITY_SAFE',
        `StatusText CanonicalHeaderKey DetectContentType Header ParseTime TimeFormat
      ParseHTTPVersion MethodGet MethodHead MethodPost MethodPut MethodPatch MethodDelete MethodConnect
      MethodOptions MethodTrace`,
      ],
    ]),
  },
  syscall: { fallback: 'CAPABILITY_SYSTEM_CALLS' },
  'golang.org/x/sys/unix': { fallback: 'CAPABILITY_SYSTEM_CALLS' },
  'golang.org/x/sys/windows': { fallback: 'CAPABILITY_SYSTEM_CALLS' },
  unsafe: { fallback: 'CAPABILITY_UNSAFE_POINTER' },
  C: { fallback: 'CAPABILITY_CGO' },
  reflect: { fallback: 'CAPABILITY_REFLECT' },
  plugin: { fallback: 'CAPABILITY_ARBITRARY_EXECUTION' },
  runtime: {
    by: byName([
      [RUNTIME, 'SetFinalizer GC GOMAXPROCS LockOSThread UnlockOSThread Goexit Breakpoint SetCPUProfileRate'],
      [READ, 'Caller Callers Stack NumGoroutine NumCPU GOROOT ReadMemStats'],
    ]),
  },
  'runtime/debug': {
    by: byName([
      [RUNTIME, 'SetGCPercent SetMaxStack SetMaxThreads SetMemoryLimit SetPanicOnFault FreeOSMemory SetTraceback'],
      [READ, 'ReadBuildInfo Stack PrintStack ReadGCStats'],
    ]),
  },
};

/** Go source without comments and with every string, raw string and rune literal emptied. */
export function stripGo(src: string, keepStrings = false): string {
  return src.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|`[^`]*`|'(?:[^'\\\n]|\\.)*'/g, (m) => {
    if (m.startsWith('/')) return m.startsWith('/*') ? m.replace(/[^\n]/g, ' ') : '';
    return keepStrings ? m : m[0] === '`' ? '``' : `${m[0]}${m[0]}`;
  });
}

/** The imports of a Go file: [local name, path]; `_` and `.` kept as written. */
export function goImports(src: string): [string, string][] {
  const code = stripGo(src, true);
  const out: [string, string][] = [];
  const spec = /^\s*([A-Za-z_][\w]*|\.)?\s*"([^"]+)"\s*;?\s*$/;
  for (const m of code.matchAll(/\bimport\s*(?:\(([\s\S]*?)\)|([A-Za-z_.][\w]*\s*"[^"]+"|"[^"]+"))/g)) {
    for (const line of (m[1] ?? m[2] ?? '').split(/\n|;/)) {
      const s = spec.exec(line);
      if (!s) continue;
      const path = s[2]!;
      const last = path
        .split('/')
        .pop()!
        .replace(/\.v\d+$/, '')
        .replace(/^go-/, '');
      out.push([s[1] ?? last, path]);
    }
  }
  return out;
}

/** Capabilities (distinct references) of one file. */
export function fileCapabilities(src: string): Map<Capability, number> {
  const counts = new Map<Capability, number>();
  const add = (c: Capability | undefined) => {
    if (c && c !== 'CAPABILITY_SAFE') counts.set(c, (counts.get(c) ?? 0) + 1);
  };
  const code = stripGo(src);
  for (const [local, path] of goImports(src)) {
    const rule = RULES[path];
    if (!rule) continue;
    if (local === '_' || local === '.' || path === 'C') {
      add(rule.fallback ?? Object.values(rule.by ?? {})[0]);
      continue;
    }
    const seen = new Set<string>();
    for (const m of code.matchAll(new RegExp(`(?<![\\w.])${local}\\.([A-Za-z_]\\w*)`, 'g'))) seen.add(m[1]!);
    for (const name of seen) add(rule.by?.[name] ?? rule.fallback);
  }
  return counts;
}

export interface CapabilityCount {
  capability: Capability;
  directCount: number;
  indirectCount: number;
}

/** The module's own Go files of a proxy zip (`module@version/...`), without tests, testdata, vendor, nested modules. */
function ownGoFiles(names: string[]): Set<string> {
  const rel = (n: string) => /^[^@]*@[^/]+\/(.*)$/.exec(n)?.[1] ?? n; // the path inside `module@version/`
  const nested = names
    .map(rel)
    .filter((r) => r.endsWith('/go.mod'))
    .map((r) => r.slice(0, -'go.mod'.length));
  return new Set(
    names.filter((n) => {
      const r = rel(n);
      return (
        r.endsWith('.go') &&
        !r.endsWith('_test.go') &&
        !/(^|\/)(testdata|vendor)\//.test(r) &&
        !nested.some((d) => r.startsWith(d))
      );
    }),
  );
}

/** Capabilities of a module version's source zip, in enum order, those with a count only. */
export async function zipCapabilities(zip: Uint8Array): Promise<CapabilityCount[]> {
  const entries = zipEntries(zip);
  const own = ownGoFiles(entries.map((e) => e.name));
  const total = new Map<Capability, number>();
  const dec = new TextDecoder();
  for (const e of entries) {
    if (!own.has(e.name)) continue;
    const src = dec.decode(await readZipEntry(zip, e));
    for (const [cap, n] of fileCapabilities(src)) total.set(cap, (total.get(cap) ?? 0) + n);
  }
  return CAPABILITIES.filter((c) => total.has(c)).map((c) => ({
    capability: c,
    directCount: total.get(c)!,
    indirectCount: 0,
  }));
}
