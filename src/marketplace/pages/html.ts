/**
 * The pages' HTML, built with hono/jsx's `jsx` (the runtime of hono/jsx, called as a function rather than
 * through TSX syntax, because tools/ run these modules under Node's type stripping, which reads .ts only).
 * Every value becomes text or an attribute value through hono/jsx, which escapes it; nothing here
 * writes raw HTML. The layout: a skip link, a header with the navigation for who is signed in, one
 * `main` landmark, one stylesheet (assets.ts) and no script, under a Content-Security-Policy without
 * 'unsafe-inline'.
 */
import type { Context } from 'hono';
import { jsx } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../../platform/env.ts';
import type { Principal } from '../auth.ts';
import { STYLESHEET_PATH } from './assets.ts';
import { CSRF_FIELD, csrfToken, viewer } from './session.ts';

// biome-ignore lint/suspicious/noExplicitAny: hono/jsx's children are any renderable value
export type Node = any;
type Props = Record<string, unknown> | null;
export const h = (tag: string, props: Props, ...children: Node[]): Node => jsx(tag, props ?? {}, ...children);

export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const STUDENT_NAV: [string, string][] = [
  ['/sell', 'Sell a book'],
  ['/request', 'Request a book'],
  ['/my-books', 'My books'],
  ['/requests', 'Requests and matches'],
  ['/cart', 'Cart'],
  ['/purchases', 'Purchases'],
  ['/sold', 'Sold'],
  ['/notifications', 'Notifications'],
  ['/account', 'Account'],
];

function nav(user: Principal | undefined, csrf: string, current: string): Node {
  const link = ([href, label]: [string, string]) =>
    h('li', null, h('a', { href, 'aria-current': href === current ? 'page' : undefined }, label));
  const items: [string, string][] = [['/', 'Books']];
  if (!user) items.push(['/login', 'Log in'], ['/signup', 'Sign up']);
  else {
    items.push(...STUDENT_NAV);
    if (user.permissionType >= 1) items.push(['/staff', 'Staff']);
  }
  return h(
    'nav',
    { 'aria-label': 'Main' },
    h('ul', null, items.map(link), user ? h('li', null, postButton('/logout', csrf, 'Log out', {}, 'link')) : null),
  );
}

/** A form of one button (a POST with the CSRF token and hidden fields). */
export function postButton(
  action: string,
  csrf: string,
  label: string,
  fields: Record<string, string> = {},
  kind: 'button' | 'link' = 'button',
): Node {
  return h(
    'form',
    { method: 'post', action, class: 'inline' },
    h('input', { type: 'hidden', name: CSRF_FIELD, value: csrf }),
    Object.entries(fields).map(([name, value]) => h('input', { type: 'hidden', name, value })),
    h('button', { type: 'submit', class: kind }, label),
  );
}

export interface FieldSpec {
  name: string;
  label: string;
  type?: string;
  value?: string;
  required?: boolean;
  autocomplete?: string;
  hint?: string;
  extra?: Record<string, unknown>;
}

/** A labelled input; its error (from the same zod schema as the API) is tied to it by aria-describedby. */
export function field(f: FieldSpec, errors: Record<string, string> = {}): Node {
  const id = `f-${f.name}`;
  const err = errors[f.name];
  const described = [f.hint ? `${id}-hint` : '', err ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    name: f.name,
    required: f.required ?? true,
    autocomplete: f.autocomplete,
    'aria-invalid': err ? 'true' : undefined,
    'aria-describedby': described || undefined,
    ...f.extra,
  };
  const input =
    f.type === 'textarea'
      ? h('textarea', { ...common, rows: 4 }, f.value ?? '')
      : h('input', { ...common, type: f.type ?? 'text', value: f.type === 'password' ? undefined : f.value });
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, f.label),
    f.hint ? h('p', { id: `${id}-hint`, class: 'hint' }, f.hint) : null,
    input,
    err ? h('p', { id: `${id}-error`, class: 'error' }, err) : null,
  );
}

export function form(action: string, csrf: string, submit: string, ...children: Node[]): Node {
  return h(
    'form',
    { method: 'post', action, novalidate: true },
    h('input', { type: 'hidden', name: CSRF_FIELD, value: csrf }),
    ...children,
    h('button', { type: 'submit' }, submit),
  );
}

export type Notice = { kind: 'ok' | 'error'; text: string };

export function notice(n: Notice | undefined): Node {
  if (!n) return null;
  return h('p', { class: `notice ${n.kind}`, role: n.kind === 'error' ? 'alert' : 'status' }, n.text);
}

export interface PageOptions {
  title: string;
  notice?: Notice;
  status?: ContentfulStatusCode;
}

/** A whole page: the layout around `body`, with the headers every page carries. */
export async function render(c: Context<AppEnv>, opts: PageOptions, ...body: Node[]): Promise<Response> {
  const csrf = await csrfToken(c);
  const doc = h(
    'html',
    { lang: 'en' },
    h(
      'head',
      null,
      h('meta', { charset: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', null, `${opts.title} · BarterOut`),
      h('link', { rel: 'stylesheet', href: STYLESHEET_PATH }),
    ),
    h(
      'body',
      null,
      h('a', { href: '#main', class: 'skip' }, 'Skip to content'),
      h(
        'header',
        null,
        h('p', { class: 'brand' }, h('a', { href: '/' }, 'BarterOut')),
        nav(viewer(c), csrf, c.req.path),
      ),
      h('main', { id: 'main' }, h('h1', null, opts.title), notice(opts.notice), ...body),
      h('footer', null, h('p', null, 'BarterOut, the campus textbook marketplace.')),
    ),
  );
  return c.html(`<!DOCTYPE html>${String(doc)}`, opts.status ?? 200, {
    'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  });
}

/** The `_csrf` value for forms built outside `render` (the same one it puts in the header). */
export { csrfToken };
