/**
 * The pages' one stylesheet, served from the Worker at a versioned path (cached for a year: a change of
 * the text changes the path). Small-screen first: one column, a wrapping navigation, tables that
 * become stacked cards below 40em; colours meet WCAG AA contrast; focus is always visible.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../../platform/env.ts';

const CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1a1a1a;background:#fff}
body{margin:0}
a{color:#0b4f9c}
a:focus,button:focus,input:focus,textarea:focus,select:focus{outline:3px solid #b35900;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5em}
.skip:focus{left:.5em}
header{background:#0b3d73;color:#fff;padding:.5em 1em}
header a,header .link{color:#fff}
.brand{margin:0;font-size:1.3em;font-weight:700}
.brand a{text-decoration:none}
nav ul{list-style:none;margin:.3em 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.2em 1em}
nav a[aria-current=page]{font-weight:700}
main{max-width:60rem;margin:0 auto;padding:1rem}
footer{max-width:60rem;margin:2rem auto 1rem;padding:0 1rem;color:#4a4a4a;font-size:.9em}
h1{font-size:1.6em;margin:.3em 0 .6em}
h2{font-size:1.25em;margin-top:1.5em}
form{margin:.5em 0 1em}
form.inline{display:inline;margin:0}
.field{margin:0 0 .9em}
label{display:block;font-weight:600}
input,textarea,select{font:inherit;width:100%;max-width:30em;padding:.45em;border:1px solid #5c5c5c;border-radius:4px}
input[type=hidden]{display:none}
button{font:inherit;padding:.45em 1em;border:0;border-radius:4px;background:#0b4f9c;color:#fff;cursor:pointer;min-height:2.75em}
button.link{background:none;color:inherit;text-decoration:underline;padding:0;min-height:0}
button.secondary{background:#e8e8e8;color:#1a1a1a}
.hint{margin:.1em 0;color:#4a4a4a;font-size:.9em}
.error{margin:.2em 0;color:#a00000;font-weight:600}
.notice{padding:.6em 1em;border-radius:4px;border-left:6px solid}
.notice.ok{background:#eaf6ea;border-color:#2e7d32}
.notice.error{background:#fdecec;border-color:#a00000}
table{border-collapse:collapse;width:100%}
caption{text-align:left;caption-side:top}
th,td{text-align:left;padding:.45em;border-bottom:1px solid #d0d0d0;vertical-align:top}
.search{display:flex;flex-wrap:wrap;gap:.5em;align-items:flex-end}
.search .field{flex:1 1 15em;margin:0}
.pager{margin:1em 0}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.2em 1em}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere}
td,h1,.notice{overflow-wrap:anywhere}
@media (max-width:40em){
  table,caption,thead,tbody,tr,th,td{display:block}
  thead{position:absolute;left:-999px}
  tr{border:1px solid #d0d0d0;border-radius:4px;margin:0 0 .8em;padding:.3em}
  td{border:0;padding:.2em .4em}
  td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
}
`;

/** FNV-1a of the text (a cache key, not a security check): synchronous, so the path is known at load. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

export const STYLESHEET_PATH = `/assets/site-${fingerprint(CSS)}.css`;

export const assetRoutes = new Hono<AppEnv>();
assetRoutes.get(STYLESHEET_PATH, (c) =>
  c.body(CSS, 200, {
    'content-type': 'text/css; charset=utf-8',
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
  }),
);
