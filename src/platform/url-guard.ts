/**
 * Outbound-URL guard (SSRF): user-supplied URLs (webhooks, sources, destinations, providers) may
 * only reach public http(s) hosts. Refused: other schemes, credentials in the URL, `localhost` and
 * `*.localhost`, `.local`/`.internal` names, and IP literals in loopback, private, link-local,
 * carrier-grade NAT, unspecified, multicast, reserved and documentation ranges, in any spelling the
 * WHATWG URL parser normalises (decimal, octal, hex IPv4; IPv4-mapped and NAT64 IPv6).
 * `OUTBOUND_ALLOWLIST` (comma-separated `host` or `host:port`) lets named targets through, which is
 * how the local stack and tests reach their servers on 127.0.0.1. Where a caller requires HTTPS, local
 * development (`OUTBOUND_LOOPBACK_HTTP=on`, which the configuration refuses unless the database is on
 * loopback) lets allow-listed loopback hosts use http.
 *
 * Names are not resolved (Workers cannot); a public name that resolves to a private address is the
 * platform's concern (Cloudflare does not route Workers fetches to private networks).
 * `guardedFetch` applies the check to every redirect hop and enforces a timeout and a size limit.
 */
import { outboundConfig } from './config/shared.ts';
import type { Env } from './env.ts';
import { isLoopbackHost } from './loopback.ts';

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

function parseIPv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function privateIPv4([a, b]: number[]): string | null {
  if (a === 0) return 'unspecified address';
  if (a === 10) return 'private address';
  if (a === 127) return 'loopback address';
  if (a === 169 && b === 254) return 'link-local address';
  if (a === 172 && b! >= 16 && b! <= 31) return 'private address';
  if (a === 192 && b === 168) return 'private address';
  if (a === 100 && b! >= 64 && b! <= 127) return 'carrier-grade NAT address';
  if (a === 192 && b === 0) return 'reserved address';
  if (a === 198 && (b === 18 || b === 19)) return 'benchmarking address';
  if (a! >= 224) return 'multicast or reserved address';
  return null;
}

function expandIPv6(host: string): number[] | null {
  let h = host.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (v4) {
    const p = parseIPv4(v4[1]!);
    if (!p) return null;
    h = `${h.slice(0, -v4[1]!.length) + ((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const halves = h.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array(Math.max(fill, 0)).fill('0'), ...tail];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

function privateIPv6(g: number[]): string | null {
  if (g.every((x) => x === 0)) return 'unspecified address';
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'loopback address';
  const embedded = (hi: number, lo: number) => privateIPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return embedded(g[6]!, g[7]!); // IPv4-mapped
  if (g.slice(0, 6).every((x) => x === 0)) return embedded(g[6]!, g[7]!); // IPv4-compatible
  if (g[0] === 0x64 && g[1] === 0xff9b) return embedded(g[6]!, g[7]!); // NAT64
  if ((g[0]! & 0xfe00) === 0xfc00) return 'unique-local address';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local address';
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast address';
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'documentation address';
  return null;
}

function allowlist(env: Pick<Env, 'OUTBOUND_ALLOWLIST'>): Set<string> {
  return new Set(outboundConfig(env).OUTBOUND_ALLOWLIST);
}

type OutboundEnv = Pick<Env, 'OUTBOUND_ALLOWLIST' | 'OUTBOUND_LOOPBACK_HTTP' | 'DATABASE_URL'>;

/** Local development only: an allow-listed loopback host may use http where HTTPS is required. */
function localHttpAllowed(url: URL, env: OutboundEnv): boolean {
  if (!outboundConfig(env).OUTBOUND_LOOPBACK_HTTP || !isLoopbackHost(url.hostname)) return false;
  const allowed = allowlist(env);
  return allowed.has(url.hostname.toLowerCase()) || allowed.has(url.host.toLowerCase());
}

export function checkOutboundUrl(raw: string, env: OutboundEnv, opts: { requireHttps?: boolean } = {}): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: `scheme ${url.protocol} is not allowed` };
  if (opts.requireHttps && url.protocol !== 'https:' && !localHttpAllowed(url, env))
    return { ok: false, reason: 'HTTPS is required' };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not allowed' };
  const host = url.hostname.toLowerCase();
  const allowed = allowlist(env);
  if (allowed.has(host) || allowed.has(url.host.toLowerCase())) return { ok: true, url };
  const bare = host.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return { ok: false, reason: 'loopback host' };
  if (host.endsWith('.local') || host.endsWith('.internal') || host.endsWith('.home.arpa'))
    return { ok: false, reason: 'private host name' };
  if (!host.includes('.') && !host.startsWith('['))
    return { ok: false, reason: 'single-label host names are not allowed' };
  const v4 = parseIPv4(bare);
  if (v4) {
    const why = privateIPv4(v4);
    return why ? { ok: false, reason: `${why} is not allowed` } : { ok: true, url };
  }
  if (host.startsWith('[')) {
    const v6 = expandIPv6(bare);
    if (!v6) return { ok: false, reason: 'invalid IPv6 address' };
    const why = privateIPv6(v6);
    return why ? { ok: false, reason: `${why} is not allowed` } : { ok: true, url };
  }
  return { ok: true, url };
}

export class OutboundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface GuardedFetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  requireHttps?: boolean;
}

export interface GuardedResponse {
  status: number;
  headers: Headers;
  url: string;
  body: Uint8Array;
  text(): string;
}

/** fetch() through the guard: every hop checked, a timeout, and the body cut off at maxBytes (error). */
export async function guardedFetch(
  env: Pick<Env, 'OUTBOUND_ALLOWLIST'>,
  rawUrl: string,
  init: RequestInit = {},
  opts: GuardedFetchOptions = {},
): Promise<GuardedResponse> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
  let target = rawUrl;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
      const check = checkOutboundUrl(target, env, opts);
      if (!check.ok) throw new OutboundError(`refused ${target}: ${check.reason}`);
      let res: Response;
      try {
        res = await fetch(check.url.toString(), { ...init, redirect: 'manual', signal: controller.signal });
      } catch (err) {
        if (controller.signal.aborted) throw new OutboundError(`timed out after ${timeoutMs} ms`);
        throw new OutboundError(`could not reach ${check.url.host}: ${(err as Error).message}`);
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        target = new URL(location, check.url).toString();
        if (res.status === 303) init = { ...init, method: 'GET', body: undefined };
        continue;
      }
      const body = await readLimited(res, maxBytes, controller);
      return {
        status: res.status,
        headers: res.headers,
        url: check.url.toString(),
        body,
        text: () => new TextDecoder().decode(body),
      };
    }
    throw new OutboundError('too many redirects');
  } catch (err) {
    if (controller.signal.aborted && !(err instanceof OutboundError))
      throw new OutboundError(`timed out after ${timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function readLimited(res: Response, maxBytes: number, controller: AbortController): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    controller.abort();
    throw new OutboundError(`response larger than ${maxBytes} bytes`);
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      throw new OutboundError(`response larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}
