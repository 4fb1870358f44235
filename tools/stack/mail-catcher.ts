/**
 * A mail catcher implementing the project's mail API (Resend-compatible `POST /emails`, bearer key),
 * keeping messages in memory: `GET /api/messages` (newest first, `{id, from, to, subject, text, html,
 * links, receivedAt}`, `links` = the http(s) URLs of the mail; filters `?to=<address>` and
 * `?subject=<substring>`, both case-insensitive; `&wait=<seconds>` (at most 30) holds the answer until
 * a matching message arrives, so a script can follow a mail that is still in the queue),
 * `GET /api/messages/<id>`, `DELETE /api/messages`, and web pages: `/` lists them
 * with each HTML body in a sandboxed iframe (no script runs; links open in a new tab, so a confirmation
 * link is one click), `/messages/<id>` shows one HTML body alone (same sandbox, by CSP) and
 * `/messages/<id>.txt` its plain-text part.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { escapeHtml } from '../../src/platform/html.ts';

export interface CaughtMail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  links: string[];
  receivedAt: string;
}

/** The http(s) URLs of a mail, text first then HTML hrefs, each once. */
export function mailLinks(text: string, html: string): string[] {
  const found = [...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((m) => m[0].replace(/[.,;:)]+$/, ''));
  for (const m of html.matchAll(/href\s*=\s*["'](https?:\/\/[^"']+)["']/gi)) found.push(m[1]!.replace(/&amp;/g, '&'));
  return [...new Set(found)];
}

export interface MailCatcher {
  server: Server;
  port: number;
  url: string;
  messages: CaughtMail[];
  close(): Promise<void>;
}

const esc = escapeHtml;

/** Scripts never run; links may open a new tab (popups escape the sandbox so the target page works). */
const SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

/** The mail's HTML with links opening in a new tab (a `<base target>` the mail's own links inherit). */
function withLinkTarget(html: string): string {
  const base = '<base target="_blank">';
  return /<head(\s[^>]*)?>/i.test(html) ? html.replace(/<head(\s[^>]*)?>/i, (m) => m + base) : base + html;
}

function page(messages: CaughtMail[]): string {
  const rows = messages
    .map(
      (
        m,
      ) => `<article><h2>${esc(m.subject)}</h2><p class="meta">${esc(m.receivedAt)} · from ${esc(m.from)} · to ${esc(m.to.join(', '))}</p>
<p class="views"><a href="/messages/${esc(m.id)}">HTML</a> · <a href="/messages/${esc(m.id)}.txt">plain text</a></p>
${m.html ? `<iframe sandbox="${SANDBOX}" srcdoc="${esc(withLinkTarget(m.html))}"></iframe>` : ''}<details${m.html ? '' : ' open'}><summary>text</summary><pre>${esc(m.text)}</pre></details></article>`,
    )
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Mail catcher (${messages.length})</title>
<meta http-equiv="refresh" content="10"><style>body{font:15px system-ui;margin:2rem;max-width:60rem}article{border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0}
.meta{color:#555}iframe{width:100%;height:14rem;border:1px solid #eee}</style></head>
<body><h1>Mail catcher</h1><p>${messages.length} message(s), newest first. JSON at <a href="/api/messages">/api/messages</a>.</p>${rows || '<p>No mail yet.</p>'}</body></html>`;
}

export async function startMailCatcher(
  port: number,
  opts: { apiKey?: string; host?: string } = {},
): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  let closed = false;
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(type === 'application/json' ? JSON.stringify(body) : String(body));
    };
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'POST' && path === '/emails') {
      if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`)
        return send(401, { statusCode: 401, name: 'missing_api_key', message: 'Missing or invalid API key' });
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      let body: Partial<{ from: string; to: string | string[]; subject: string; text: string; html: string }>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(422, { statusCode: 422, name: 'validation_error', message: 'body is not JSON' });
      }
      const to = Array.isArray(body.to) ? body.to : body.to ? [body.to] : [];
      if (!body.from || !to.length || !body.subject || (!body.text && !body.html)) {
        return send(422, {
          statusCode: 422,
          name: 'validation_error',
          message: 'from, to, subject and text or html are required',
        });
      }
      const mail: CaughtMail = {
        id: randomUUID(),
        from: body.from,
        to,
        subject: body.subject,
        text: body.text ?? '',
        html: body.html ?? '',
        links: mailLinks(body.text ?? '', body.html ?? ''),
        receivedAt: new Date().toISOString(),
      };
      messages.unshift(mail);
      for (const w of [...waiters]) w();
      return send(200, { id: mail.id });
    }
    if (req.method === 'GET' && path === '/api/messages') {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      const to = q.get('to')?.toLowerCase();
      const subject = q.get('subject')?.toLowerCase();
      const match = () =>
        messages.filter(
          (m) =>
            (!to || m.to.some((t) => t.toLowerCase().includes(to))) &&
            (!subject || m.subject.toLowerCase().includes(subject)),
        );
      const waitMs = Math.min(30, Math.max(0, Number(q.get('wait')) || 0)) * 1000;
      if (waitMs && !match().length) {
        await new Promise<void>((resolve) => {
          const done = () => {
            if (!match().length && !closed) return;
            waiters.delete(done);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(() => {
            waiters.delete(done);
            resolve();
          }, waitMs);
          waiters.add(done);
        });
      }
      return send(200, match());
    }
    if (req.method === 'DELETE' && path === '/api/messages') {
      messages.length = 0;
      return send(200, { deleted: true });
    }
    const one = /^\/api\/messages\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && one) {
      const m = messages.find((x) => x.id === one[1]);
      return m ? send(200, m) : send(404, { error: 'not found' });
    }
    if (req.method === 'GET' && path === '/') return send(200, page(messages), 'text/html; charset=utf-8');
    const view = /^\/messages\/([^/]+?)(\.txt)?$/.exec(path);
    if (req.method === 'GET' && view) {
      const m = messages.find((x) => x.id === view[1]);
      if (!m) return send(404, 'no such message\n', 'text/plain; charset=utf-8');
      if (view[2] || !m.html)
        return send(200, m.text || '(this message has no plain-text part)\n', 'text/plain; charset=utf-8');
      res.setHeader('content-security-policy', `sandbox ${SANDBOX}`);
      return send(200, withLinkTarget(m.html), 'text/html; charset=utf-8');
    }
    return send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as { port: number }).port;
  return {
    server,
    port: actual,
    url: `http://${opts.host ?? '127.0.0.1'}:${actual}`,
    messages,
    async close() {
      closed = true;
      for (const w of [...waiters]) w();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
    },
  };
}
