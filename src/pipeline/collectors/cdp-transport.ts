/**
 * A Chrome DevTools Protocol connection over the platform's standard `WebSocket` (workerd and Node 22
 * both have one), for `@cloudflare/puppeteer`'s `connect({transport})`: the development browser is a
 * local Chromium's DevTools endpoint (browser-driver.ts). The package's own WebSocket transports pick
 * Node's `ws` whenever `process.version` exists, which workerd with nodejs_compat also sets.
 */
import type { ConnectionTransport } from '@cloudflare/puppeteer';

export async function webSocketTransport(url: string, timeoutMs = 10_000): Promise<ConnectionTransport> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`DevTools endpoint ${url} did not open in time`)), timeoutMs);
    ws.addEventListener('open', () => {
      clearTimeout(timer);
      resolve();
    });
    ws.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new Error(`DevTools endpoint ${url} refused the connection`));
    });
  });
  const transport: ConnectionTransport = {
    send: (message) => ws.send(message),
    close: () => ws.close(),
  };
  ws.addEventListener('message', (e) => transport.onmessage?.(String(e.data)));
  ws.addEventListener('close', () => transport.onclose?.());
  return transport;
}

/** The browser's WebSocket URL: given as ws(s)://, or read from an http(s) endpoint's `/json/version`. */
export async function devtoolsWebSocketUrl(endpoint: string): Promise<string> {
  if (/^wss?:\/\//.test(endpoint)) return endpoint;
  const res = await fetch(new URL('/json/version', endpoint));
  const doc = (await res.json().catch(() => ({}))) as { webSocketDebuggerUrl?: unknown };
  if (!res.ok || typeof doc.webSocketDebuggerUrl !== 'string')
    throw new Error(`DevTools endpoint ${endpoint} has no webSocketDebuggerUrl (HTTP ${res.status})`);
  return doc.webSocketDebuggerUrl;
}
