/**
 * A stand-in for the Workers `BROWSER` binding (Cloudflare Browser Rendering) that speaks the
 * interface `@cloudflare/puppeteer` uses: `POST /v1/devtools/browser` acquires a session
 * (`{sessionId}`), and `GET /v1/devtools/browser/<id>` with `Upgrade: websocket` answers a response
 * whose `webSocket` carries the DevTools protocol to that session's browser (accepted with
 * `accept()`, as in workerd). Each session is a fresh local Chromium (tools/browser-cdp.ts), as each
 * Browser Rendering session is a fresh browser; `Browser.close` ends it. Anything else answers 404.
 */
import type { BrowserWorker } from '@cloudflare/puppeteer';
import { type LocalCdp, startChromiumCdp } from '../../../tools/browser-cdp.ts';

export interface FakeBrowserBinding extends BrowserWorker {
  /** Every request the binding received, as `METHOD path`. */
  calls: string[];
  /** Sessions acquired so far. */
  acquired: number;
  close(): Promise<void>;
}

export function fakeBrowserBinding(chromiumArgs: string[] = []): FakeBrowserBinding {
  const browsers = new Map<string, LocalCdp>();
  const calls: string[] = [];
  const binding: FakeBrowserBinding = {
    calls,
    acquired: 0,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      const url = new URL(req.url);
      calls.push(`${req.method} ${url.pathname}`);
      if (req.method === 'POST' && url.pathname === '/v1/devtools/browser') {
        const sessionId = crypto.randomUUID();
        browsers.set(sessionId, await startChromiumCdp(0, chromiumArgs));
        binding.acquired++;
        return Response.json({ sessionId });
      }
      const m = /^\/v1\/devtools\/browser\/([\w-]+)$/.exec(url.pathname);
      const browser = m && browsers.get(m[1]!);
      if (browser && req.headers.get('upgrade') === 'websocket') return upgrade(browser);
      return new Response('not found', { status: 404 });
    }) as typeof fetch,
    async close() {
      await Promise.all([...browsers.values()].map((b) => b.close()));
    },
  };
  return binding;
}

/** workerd's answer to a WebSocket upgrade: status 101 and the accepted socket in `webSocket`. */
async function upgrade(browser: LocalCdp): Promise<Response> {
  const ws = new WebSocket(browser.wsUrl);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve());
    ws.addEventListener('error', () => reject(new Error('the session browser refused the DevTools connection')));
  });
  const webSocket = {
    accept() {},
    send: (m: string) => ws.send(m),
    close: () => ws.close(),
    addEventListener: (type: string, fn: (e: unknown) => void) => ws.addEventListener(type, fn as never),
  };
  return { status: 101, ok: false, webSocket } as unknown as Response;
}
