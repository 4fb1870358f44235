/**
 * A local stand-in for Cloudflare Browser Rendering's `/content` quick action, driving the headless
 * Chromium of Debian's `chromium` package through playwright-core: `POST /content` with `Authorization:
 * Bearer <token>` and `{url, gotoOptions?: {waitUntil?, timeout?}, rejectResourceTypes?, userAgent?}`
 * answers `{success: true, result: "<rendered html>", errors: [], messages: []}` (Cloudflare's envelope),
 * or `{success: false, errors: [{code, message}]}` with 400/401/422. One browser, a fresh context per
 * request. Local use only (it loads whatever URL it is given; the pipeline checks targets first).
 * (The browser agents drive a Chromium of their own through its DevTools endpoint: tools/browser-cdp.ts.)
 *
 *   npm run browser-render -- [port] [token]   (defaults 8031, local-browser-token; CHROMIUM=/usr/bin/chromium)
 * then PIPELINE_BROWSER_RENDERING_URL=http://127.0.0.1:8031 PIPELINE_BROWSER_RENDERING_TOKEN=local-browser-token.
 */
import { createServer, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';

export interface BrowserRender {
  url: string;
  token: string;
  /** URLs rendered, in order. */
  rendered: string[];
  close(): Promise<void>;
}

const WAIT: Record<string, 'load' | 'domcontentloaded' | 'networkidle'> = {
  load: 'load',
  domcontentloaded: 'domcontentloaded',
  networkidle0: 'networkidle',
  networkidle2: 'networkidle',
};

export async function startBrowserRender(port = 0, token = 'local-browser-token'): Promise<BrowserRender> {
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const rendered: string[] = [];
  const reply = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const fail = (code: number, message: string) => ({
    success: false,
    errors: [{ code, message }],
    messages: [],
    result: null,
  });
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'POST' || path !== '/content') return reply(res, 404, fail(7003, 'Could not route'));
    if (req.headers.authorization !== `Bearer ${token}`) return reply(res, 401, fail(10000, 'Authentication error'));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: {
      url?: string;
      gotoOptions?: { waitUntil?: string; timeout?: number };
      rejectResourceTypes?: string[];
      userAgent?: string;
    };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return reply(res, 400, fail(1001, 'Invalid JSON body'));
    }
    if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url))
      return reply(res, 422, fail(1002, 'url must be an http(s) URL'));
    const context = await browser.newContext(body.userAgent ? { userAgent: body.userAgent } : {});
    try {
      const page = await context.newPage();
      const reject = new Set(body.rejectResourceTypes ?? []);
      if (reject.size)
        await page.route('**/*', (r) => (reject.has(r.request().resourceType()) ? r.abort() : r.continue()));
      const waitUntil = WAIT[body.gotoOptions?.waitUntil ?? 'load'] ?? 'load';
      await page.goto(body.url, { waitUntil, timeout: Math.min(body.gotoOptions?.timeout ?? 30_000, 60_000) });
      rendered.push(body.url);
      reply(res, 200, { success: true, result: await page.content(), errors: [], messages: [] });
    } catch (err) {
      reply(res, 422, fail(2001, `navigation failed: ${(err as Error).message.split('\n')[0]}`));
    } finally {
      await context.close();
    }
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    token,
    rendered,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await browser.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await startBrowserRender(Number(process.argv[2] ?? 8031), process.argv[3] ?? 'local-browser-token');
  console.log(`browser rendering on ${r.url} (token ${r.token})`);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void r.close().then(() => process.exit(0)));
}
