/**
 * Loopback hosts: `localhost` (and `*.localhost`), 127.0.0.0/8 and `[::1]`, as the WHATWG URL parser
 * spells a URL's hostname. Used by the local-development switch of the outbound guard and by the
 * configuration check that refuses that switch outside local development.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '[::1]' || h === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** True when `url` parses and names a loopback host (e.g. a database on this machine). */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
