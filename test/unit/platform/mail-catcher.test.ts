import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailCatcher, type MailCatcher } from '../../../tools/stack/mail-catcher.ts';

let mail: MailCatcher;
let id: string;
beforeAll(async () => {
  mail = await startMailCatcher(0, { apiKey: 'k' });
  const res = await fetch(`${mail.url}/emails`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    body: JSON.stringify({
      from: 'a@x.test',
      to: 'b@x.test',
      subject: 'Confirm',
      html: '<html><head><title>t</title></head><body><a href="http://127.0.0.1:8788/api/auth/confirm/abc">Confirm</a></body></html>',
      text: 'Confirm: http://127.0.0.1:8788/api/auth/confirm/abc',
    }),
  });
  id = ((await res.json()) as { id: string }).id;
});
afterAll(() => mail.close());

describe('mail catcher pages', () => {
  it('lists the HTML in an iframe whose links open in a new tab, with links to both views', async () => {
    const page = await (await fetch(`${mail.url}/`)).text();
    expect(page).toContain('<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="');
    expect(page).toContain('&lt;head&gt;&lt;base target=&quot;_blank&quot;&gt;&lt;title&gt;');
    expect(page).toContain(`<a href="/messages/${id}">HTML</a> · <a href="/messages/${id}.txt">plain text</a>`);
  });

  it('serves one message as HTML under a sandbox CSP, and its plain-text part', async () => {
    const html = await fetch(`${mail.url}/messages/${id}`);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toBe('sandbox allow-popups allow-popups-to-escape-sandbox');
    expect(await html.text()).toContain(
      '<head><base target="_blank"><title>t</title></head><body><a href="http://127.0.0.1:8788/api/auth/confirm/abc">',
    );
    const text = await fetch(`${mail.url}/messages/${id}.txt`);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('Confirm: http://127.0.0.1:8788/api/auth/confirm/abc');
    expect((await fetch(`${mail.url}/messages/nope`)).status).toBe(404);
  });

  it('lists the links of a mail and filters by recipient and subject', async () => {
    const all = (await (await fetch(`${mail.url}/api/messages?to=B@X.TEST&subject=confirm`)).json()) as {
      id: string;
      links: string[];
    }[];
    expect(all.map((m) => [m.id, m.links])).toEqual([[id, ['http://127.0.0.1:8788/api/auth/confirm/abc']]]);
    expect(await (await fetch(`${mail.url}/api/messages?to=nobody@x.test`)).json()).toEqual([]);
  });

  it('?wait holds the answer until a matching mail arrives', async () => {
    const waiting = fetch(`${mail.url}/api/messages?to=late@x.test&wait=10`).then((r) => r.json()) as Promise<
      { subject: string }[]
    >;
    await new Promise((r) => setTimeout(r, 200));
    await fetch(`${mail.url}/emails`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'a@x.test', to: ['late@x.test'], subject: 'Late', text: 'hi' }),
    });
    expect((await waiting).map((m) => m.subject)).toEqual(['Late']);
  });
});
