/**
 * Both browser drivers (src/pipeline/collectors/browser-driver.ts) run the same table of actions on
 * local pages: the production one through a fake `BROWSER` binding that speaks Browser Rendering's
 * binding interface to `@cloudflare/puppeteer` (test/support/fakes/browser-binding.ts, a fresh
 * Chromium per session), the development one through a local Chromium's DevTools endpoint.
 * Which one a deployment uses is configuration: `browserDriver(env)` (browser-config.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCdp, startChromiumCdp } from '../../tools/browser-cdp.ts';
import type { Env } from '../../src/platform/env.ts';
import { browserDriver } from '../../src/pipeline/collectors/browser-config.ts';
import type { BrowserDriver } from '../../src/pipeline/collectors/browser-driver.ts';
import { bindingDriver, cdpDriver } from '../../src/pipeline/collectors/puppeteer-browser.ts';
import { type FakeBrowserBinding, fakeBrowserBinding } from '../support/fakes/browser-binding.ts';
import { startFeedServer, type FeedServer } from '../support/fakes/feed-server.ts';

let site: FeedServer;
let cdp: LocalCdp;
let binding: FakeBrowserBinding;

const page = (title: string, body: string) => ({
  status: 200,
  headers: { 'content-type': 'text/html' },
  body: `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`,
});

beforeAll(async () => {
  [site, cdp] = await Promise.all([startFeedServer(), startChromiumCdp()]);
  binding = fakeBrowserBinding();
  site.route(
    '/start',
    page(
      'Start',
      `<p>Hello</p><a href="/second">Second page</a><button onclick="document.body.insertAdjacentHTML('beforeend','<p>revealed</p>')">Reveal</button>`,
    ),
  );
  site.route(
    '/second',
    page(
      'Second',
      '<p>Arrived</p><form action="/search"><input name="q" placeholder="Search"><button>Go</button></form>',
    ),
  );
  site.route('/search', page('Results', '<p>results page</p>'));
  site.route(
    '/scripted',
    page(
      'Scripted',
      `<div id="x"></div><script>document.getElementById('x').textContent='written by a script'</script><img src="/big.png">`,
    ),
  );
});
afterAll(async () => {
  await Promise.all([site.close(), cdp.close(), binding.close()]);
});

const drivers: [string, () => BrowserDriver][] = [
  ['binding (fake BROWSER binding)', () => bindingDriver(binding)],
  ['cdp (local DevTools endpoint)', () => cdpDriver(cdp.httpUrl)],
];

describe.each(drivers)('browser driver: %s', (_name, make) => {
  it('opens, reads, clicks a link and a button, fills, scrolls and resets in one session', async () => {
    const session = await make().session('insight-pipeline/1.0');
    try {
      const start = await session.act({ action: 'open', url: `${site.url}/start` });
      expect(start.url).toBe(`${site.url}/start`);
      expect(start.title).toBe('Start');
      expect(start.text).toContain('Hello');
      expect(start.elements).toEqual([
        { index: 0, kind: 'link', text: 'Second page', href: `${site.url}/second` },
        { index: 1, kind: 'button', text: 'Reveal' },
      ]);
      const revealed = await session.act({ action: 'click', element: 1 });
      expect(revealed.text).toContain('revealed');
      const second = await session.act({ action: 'click', element: 0 });
      expect([second.url, second.title]).toEqual([`${site.url}/second`, 'Second']);
      const input = second.elements.find((e) => e.kind === 'input')!;
      await session.act({ action: 'fill', element: input.index, value: 'needle' });
      const results = await session.act({ action: 'click', element: second.elements.at(-1)!.index });
      expect(results.url).toBe(`${site.url}/search?q=needle`);
      expect((await session.act({ action: 'scroll' })).title).toBe('Results');
      expect((await session.act({ action: 'read' })).text).toContain('results page');
      expect((await session.act({ action: 'reset' })).url).toBe('about:blank');
    } finally {
      await session.close();
    }
    expect(
      site.requests
        .filter((r) => r.path === '/search')
        .at(-1)
        ?.query.get('q'),
    ).toBe('needle');
  });

  it('renders a page after its scripts ran, without loading images', async () => {
    const before = site.requests.filter((r) => r.path === '/big.png').length;
    const html = await make().render(`${site.url}/scripted`, 'insight-pipeline/1.0');
    expect(html).toContain('<div id="x">written by a script</div>');
    expect(site.requests.filter((r) => r.path === '/big.png').length).toBe(before);
    expect(site.requests.filter((r) => r.path === '/scripted').at(-1)?.headers['user-agent']).toBe(
      'insight-pipeline/1.0',
    );
  });
});

describe('which driver configuration chooses', () => {
  it('the binding in production (unless turned off), the DevTools endpoint when set, none without either', () => {
    const env = (e: Record<string, unknown>) => e as unknown as Env;
    expect(browserDriver(env({}))).toBeUndefined();
    expect(browserDriver(env({ BROWSER: binding }))?.kind).toBe('binding');
    expect(browserDriver(env({ BROWSER: binding, PIPELINE_BROWSER_BINDING: 'off' }))).toBeUndefined();
    expect(browserDriver(env({ PIPELINE_BROWSER_CDP_URL: cdp.httpUrl }))?.kind).toBe('cdp');
    expect(browserDriver(env({ BROWSER: binding, PIPELINE_BROWSER_CDP_URL: cdp.wsUrl }))?.kind).toBe('cdp');
  });

  it('a binding session is acquired and connected through the binding interface', () => {
    expect(binding.acquired).toBeGreaterThanOrEqual(2);
    expect(binding.calls.filter((c) => c === 'POST /v1/devtools/browser').length).toBe(binding.acquired);
    expect(binding.calls.filter((c) => c.startsWith('GET /v1/devtools/browser/')).length).toBe(binding.acquired);
  });
});
