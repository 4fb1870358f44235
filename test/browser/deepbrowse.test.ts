/**
 * `deepbrowse` with a real browser: the pipeline asks the Browser Rendering `/content` contract, served
 * locally by tools/browser-render.ts driving Debian's headless Chromium, for a page whose articles only
 * exist after its scripts ran (one list inline, one fetched after load). The same page read by
 * `blog_scraper` (no browser) has no articles. Private targets are refused before the browser is asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserRender, type BrowserRender } from '../../tools/browser-render.ts';
import { startFeedServer, type FeedServer } from '../support/fakes/feed-server.ts';
import { testDb, testEnv } from '../support/env.ts';
import type { Served } from '../support/serve.ts';
import { adminClient, resetPipeline, waitForTask, withQueue } from '../http/pipeline/helpers.ts';

let render: BrowserRender;
let site: FeedServer;
let served: Served;
let api: ReturnType<typeof adminClient>;

const SPA = `<!doctype html><html><head><title>Script-rendered blog</title></head><body><main id="app"></main>
<script>
const render = (posts) => document.getElementById('app').insertAdjacentHTML('beforeend', posts.map((p) =>
  '<article><h2><a href="' + p.href + '">' + p.title + '</a></h2><p>' + p.text + '</p></article>').join(''));
render([{ title: 'Rendered post one', href: '/spa/one', text: 'Written by a script.' }]);
fetch('/spa/posts.json').then((r) => r.json()).then(render);
</script></body></html>`;

beforeAll(async () => {
  await resetPipeline();
  [render, site] = await Promise.all([startBrowserRender(), startFeedServer()]);
  site.route('/spa.html', { status: 200, headers: { 'content-type': 'text/html' }, body: SPA });
  site.route('/spa/posts.json', {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ title: 'Fetched post two', href: '/spa/two', text: 'Loaded after the page.' }]),
  });
  ({ served, api } = await withQueue({
    PIPELINE_BROWSER_RENDERING_URL: render.url,
    PIPELINE_BROWSER_RENDERING_TOKEN: render.token,
  }));
});
afterAll(async () => {
  await served.close();
  await Promise.all([render.close(), site.close()]);
});

async function source(method: string, url: string): Promise<string> {
  const res = await api.post('/api/v1/sources', {
    name: method,
    category: 'blog',
    collect_method: method,
    config: { url },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('deepbrowse through a real browser', () => {
  it('reads the articles a script wrote, which blog_scraper cannot see', async () => {
    const deep = await source('deepbrowse', `${site.url}/spa.html`);
    const res = (await (await api.post(`/api/v1/sources/${deep}/test`)).json()) as any;
    expect(res).toMatchObject({
      success: true,
      format: 'rendered_html',
      message: 'Connection successful. Retrieved 2 items.',
    });
    expect(res.sample_articles.map((a: any) => [a.title, a.url])).toEqual([
      ['Rendered post one', `${site.url}/spa/one`],
      ['Fetched post two', `${site.url}/spa/two`],
    ]);
    expect(render.rendered).toEqual([`${site.url}/spa.html`]);
    const plain = await source('blog_scraper', `${site.url}/spa.html`);
    expect(((await (await api.post(`/api/v1/sources/${plain}/test`)).json()) as any).message).toBe(
      'Connection successful. Retrieved 0 items.',
    );
  });

  it('a triggered task stores the rendered articles', async () => {
    const id = await source('deepbrowse', `${site.url}/spa.html`);
    const created = (await (await api.post('/api/v1/tasks/trigger', { source_id: id })).json()) as any;
    const done = await waitForTask(api, created.id);
    expect(done).toMatchObject({ status: 'success', articles_count: 2 });
    const rows = await testDb().query<{ title: string; summary: string }>(
      `SELECT title, summary FROM pipeline.articles WHERE url LIKE $1 ORDER BY title DESC`,
      [`${site.url}/spa/%`],
    );
    expect(rows).toEqual([
      { title: 'Rendered post one', summary: 'Written by a script.' },
      { title: 'Fetched post two', summary: 'Loaded after the page.' },
    ]);
  });

  it('never hands a private address to the browser', async () => {
    const before = render.rendered.length;
    const refused = await api.post('/api/v1/sources', {
      name: 'private',
      category: 'blog',
      collect_method: 'deepbrowse',
      config: { url: 'http://10.1.2.3/admin' },
    });
    expect([refused.status, await refused.json()]).toEqual([
      422,
      { detail: 'source URL: private address is not allowed' },
    ]);
    // Saved while allow-listed: the check is made again when the page is to be loaded.
    const allowing = adminClient(
      testEnv({
        PIPELINE_BROWSER_RENDERING_URL: render.url,
        PIPELINE_BROWSER_RENDERING_TOKEN: render.token,
        OUTBOUND_ALLOWLIST: '127.0.0.1,10.1.2.3',
      }),
    );
    const saved = await allowing.post('/api/v1/sources', {
      name: 'private',
      category: 'blog',
      collect_method: 'deepbrowse',
      config: { url: 'http://10.1.2.3/admin' },
    });
    const id = ((await saved.json()) as { id: string }).id;
    expect(await (await api.post(`/api/v1/sources/${id}/test`)).json()).toEqual({
      success: false,
      message: 'Test failed: refused to browse http://10.1.2.3/admin: private address is not allowed',
      sample_articles: [],
    });
    expect(render.rendered.length).toBe(before);
  });
});
