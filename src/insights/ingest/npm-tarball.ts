/**
 * npm `bundled` requirements from the version's tarball: the manifests in the `node_modules`
 * folders of the package (nested ones too), as deps.dev's `Requirements.npm.bundled[]`
 * `{path, name, version, dependencies}`.
 *
 * - Only versions that declare bundleDependencies are read (npm packs `node_modules` only for
 *   those), so ingesting a package costs no tarball download unless it bundles something.
 * - The tarball is `dist.tarball`; a URL on the public registry is fetched through the configured
 *   NPM_REGISTRY_URL (a mirror serves tarballs at the same paths). INSIGHTS_NPM_TARBALLS=off skips
 *   tarballs (bundled stays empty).
 * - The stream is gunzipped with DecompressionStream and read by a small tar reader (ustar, GNU
 *   long names, pax `path`), keeping only the manifests wanted, so memory stays small whatever the
 *   tarball's size: everything else is streamed past, however large (a tarball of several GB is read
 *   to its end). What is kept is bounded: at most MAX_KEPT_BYTES of manifests per tarball; past that
 *   the read fails with an error naming the limit (the answer that needed it says so).
 * - Read when an answer needs them (GetRequirements of that version, a graph holding it; see
 *   npm-pending.ts), never for every version of a package inside one request.
 * - `path` is the folder inside the package, the tarball's first path component (`package/`)
 *   dropped: `node_modules/a`, `node_modules/a/node_modules/@s/b`. Entries are sorted by path.
 *   A manifest that is not JSON is skipped; name/version are as the bundled manifest declares them.
 */
import { fetchUpstream, upstreamUrl, type UpstreamEnv } from './http.ts';
import { npmDependencies } from './npm-manifest.ts';
import { UpstreamError } from './types.ts';
import { insightsConfig } from '../config.ts';

export interface Bundle {
  path: string;
  name: string;
  version: string;
  dependencies: ReturnType<typeof npmDependencies>;
}

/** Bytes of wanted files (manifests) one tarball may keep in memory. */
export const MAX_KEPT_BYTES = 32 * 1024 * 1024;
const PUBLIC_REGISTRY = 'https://registry.npmjs.org/';

export interface TarHeader {
  path: string;
  /** '0' file, '5' directory, 'x' pax, 'g' global pax, 'L' GNU long name, ... ('\0' is read as '0') */
  type: string;
  size: number;
}

const decoder = new TextDecoder();

function field(block: Uint8Array, start: number, length: number): string {
  let end = start;
  while (end < start + length && block[end] !== 0) end++;
  return decoder.decode(block.subarray(start, end));
}

function octal(block: Uint8Array, start: number, length: number): number {
  if (block[start]! & 0x80) {
    // GNU base-256: big-endian binary after the marker bit
    let n = block[start]! & 0x7f;
    for (let i = start + 1; i < start + length; i++) n = n * 256 + block[i]!;
    return n;
  }
  const s = field(block, start, length).trim();
  return s ? parseInt(s, 8) : 0;
}

/** Reads one 512-byte header block; null for the all-zero end-of-archive block. Throws on a bad checksum. */
export function parseTarHeader(block: Uint8Array): TarHeader | null {
  if (block.length !== 512) throw new Error('tar: short header block');
  if (block.every((b) => b === 0)) return null;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  const declared = octal(block, 148, 8);
  if (declared !== sum) throw new Error('tar: header checksum mismatch');
  const name = field(block, 0, 100);
  const ustar = field(block, 257, 6).startsWith('ustar');
  const prefix = ustar ? field(block, 345, 155) : '';
  const type = String.fromCharCode(block[156]!);
  return { path: prefix ? `${prefix}/${name}` : name, type: type === '\0' ? '0' : type, size: octal(block, 124, 12) };
}

/** Records of a pax extended header (`<len> <key>=<value>\n`...). */
export function parsePax(data: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    let sp = i;
    while (sp < data.length && data[sp] !== 0x20) sp++;
    const len = parseInt(decoder.decode(data.subarray(i, sp)), 10);
    if (!(len > 0) || i + len > data.length) break;
    const rec = decoder.decode(data.subarray(sp + 1, i + len - 1));
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

export interface TarFile {
  path: string;
  data: Uint8Array;
}

/**
 * Regular files of a tar stream whose path `want` accepts, with their contents. Stops at the end
 * marker, at the end of the stream, or with an error past `maxBytes` read in all or past `maxKept`
 * bytes of wanted files kept (files not wanted are streamed past without being kept).
 */
export async function* readTar(
  stream: ReadableStream<Uint8Array>,
  want: (path: string) => boolean,
  maxBytes = Number.POSITIVE_INFINITY,
  maxKept = MAX_KEPT_BYTES,
): AsyncGenerator<TarFile> {
  const reader = stream.getReader();
  let buf = new Uint8Array(0);
  let total = 0;
  let kept = 0;
  let done = false;
  /** Ensures `n` bytes are buffered; false at the end of the stream. */
  const fill = async (n: number): Promise<boolean> => {
    while (buf.length < n && !done) {
      const r = await reader.read();
      if (r.done) {
        done = true;
        break;
      }
      total += r.value.length;
      if (total > maxBytes) throw new Error(`tar: more than ${maxBytes} bytes`);
      const next = new Uint8Array(buf.length + r.value.length);
      next.set(buf);
      next.set(r.value, buf.length);
      buf = next;
    }
    return buf.length >= n;
  };
  /** Consumes `n` bytes, keeping them only when asked (skipped data is never copied). */
  const take = async (n: number, keep: boolean): Promise<Uint8Array | null> => {
    const out = keep ? new Uint8Array(n) : null;
    let got = 0;
    while (got < n) {
      if (!buf.length && !(await fill(1))) throw new Error('tar: truncated archive');
      const k = Math.min(n - got, buf.length);
      out?.set(buf.subarray(0, k), got);
      buf = buf.subarray(k);
      got += k;
    }
    return out;
  };
  try {
    let longName: string | undefined;
    let pax: Record<string, string> = {};
    let globalPax: Record<string, string> = {};
    while (await fill(512)) {
      const h = parseTarHeader(buf.slice(0, 512));
      buf = buf.subarray(512);
      if (!h) break;
      const padded = Math.ceil(h.size / 512) * 512;
      if (h.type === 'x' || h.type === 'g' || h.type === 'L') {
        const data = (await take(h.size, true))!;
        await take(padded - h.size, false);
        if (h.type === 'L') longName = field(data, 0, data.length);
        else if (h.type === 'x') pax = parsePax(data);
        else globalPax = { ...globalPax, ...parsePax(data) };
        continue;
      }
      const path = longName ?? pax.path ?? globalPax.path ?? h.path;
      const size = pax.size !== undefined ? Number(pax.size) : h.size;
      longName = undefined;
      pax = {};
      const keep = (h.type === '0' || h.type === '7') && want(path);
      if (keep) kept += size;
      if (kept > maxKept)
        throw new Error(`tar: ${path} would keep ${kept} bytes in memory, more than the limit of ${maxKept}`);
      const data = await take(size, keep);
      await take(Math.ceil(size / 512) * 512 - size, false);
      if (data) yield { path, data };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** `node_modules/a[/node_modules/@s/b...]` of a manifest path in the tarball, null when it is not a bundled package root. */
export function bundledFolder(path: string): string | null {
  const inner = path
    .replace(/^\.?\/*/, '')
    .split('/')
    .slice(1)
    .join('/'); // drop `package/`
  const m = /^((?:node_modules\/(?:@[^/]+\/)?[^/@][^/]*\/)+)package\.json$/.exec(inner);
  return m ? m[1]!.slice(0, -1) : null;
}

/** The bundled manifests of a (gzipped) npm tarball stream. */
export async function bundledFromTarball(
  gzipped: ReadableStream<Uint8Array>,
  maxKept = MAX_KEPT_BYTES,
): Promise<Bundle[]> {
  const tar = gzipped.pipeThrough(
    new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
  const out: Bundle[] = [];
  for await (const f of readTar(tar, (p) => bundledFolder(p) !== null, Number.POSITIVE_INFINITY, maxKept)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decoder.decode(f.data));
    } catch {
      continue;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
    const m = parsed as Partial<Record<string, unknown>>; // read by shape, as a packument's version entry
    out.push({
      path: bundledFolder(f.path)!,
      name: typeof m.name === 'string' ? m.name : '',
      version: typeof m.version === 'string' ? m.version : '',
      dependencies: npmDependencies(m),
    });
  }
  const seen = new Set<string>();
  const firstOfPath = (b: (typeof out)[number]) => {
    if (seen.has(b.path)) return false;
    seen.add(b.path);
    return true;
  };
  return out.filter(firstOfPath).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Where to fetch a tarball: public-registry URLs go through the configured registry base. */
export function tarballUrl(env: UpstreamEnv, tarball: string): string {
  const base = `${upstreamUrl(env, 'NPM_REGISTRY_URL')}/`;
  if (tarball.startsWith(PUBLIC_REGISTRY)) return base + tarball.slice(PUBLIC_REGISTRY.length);
  return new URL(tarball, base).toString();
}

export async function fetchBundled(env: UpstreamEnv, tarball: string): Promise<Bundle[]> {
  const res = await fetchUpstream(tarballUrl(env, tarball));
  if (!res.body) return [];
  try {
    return await bundledFromTarball(res.body);
  } catch (err) {
    throw new UpstreamError(`${tarball}: ${(err as Error).message}`);
  }
}

export function tarballsEnabled(env: UpstreamEnv): boolean {
  return insightsConfig(env).INSIGHTS_NPM_TARBALLS;
}
