/**
 * `node tools/compare-html.ts`: issue 23's HTML row. Runs the `blog_scraper` page parser
 * (src/pipeline/collectors/html.ts, on htmlparser2) over the corpus of tools/html-corpus.ts and prints
 * its pass rate and failures, then the median time to parse one large page (the corpus pages' articles
 * repeated to about 400 KiB). HTML_BASELINE=<path to another html.ts> adds that module as a second
 * column: the regex scanner this replaced is
 * `git show 02e58a7:src/pipeline/collectors/html.ts > .tmp/html.ts`, with
 * `git show 02e58a7:src/pipeline/collectors/xml-text.ts > .tmp/xml-text.ts` beside it.
 */
import { resolve } from 'node:path';
import { parseHtml } from '../src/pipeline/collectors/html.ts';
import type { CollectResult } from '../src/pipeline/collectors/types.ts';
import { cases } from './html-corpus.ts';

type Parse = (html: string, url: string) => CollectResult;
const impls: [string, Parse][] = [['html.ts (htmlparser2)', parseHtml]];
if (process.env.HTML_BASELINE) {
  const mod = (await import(resolve(process.env.HTML_BASELINE))) as { parseHtml: Parse };
  impls.push([`baseline ${process.env.HTML_BASELINE}`, mod.parseHtml]);
}

const body = cases.map((c) => /<body[^>]*>([\s\S]*)<\/body>/i.exec(c.html)?.[1] ?? '').join('\n');
const big = `<html><head><title>Big</title></head><body>${body.repeat(Math.ceil(400_000 / body.length))}</body></html>`;
for (const [name, parse] of impls) {
  const failed: string[] = [];
  for (const c of cases) {
    const r = parse(c.html, c.url);
    const got = JSON.stringify([r.title, r.items.map((i) => [i.title, i.url, i.summary, i.published_at])]);
    if (got !== JSON.stringify([c.title, c.items])) failed.push(`${c.name.slice(0, 40)}: ${got.slice(0, 160)}`);
  }
  const t: number[] = [];
  for (let r = 0; r < 11; r++) {
    const t0 = performance.now();
    parse(big, 'https://big.example/');
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  const rate = `${cases.length - failed.length}/${cases.length}`;
  const kib = (big.length / 1024).toFixed(0);
  console.log(`${name.padEnd(24)} ${rate}  parse ${kib} KiB page: median ${t[5]!.toFixed(1)} ms`);
  for (const f of failed) console.log(`   FAIL ${f}`);
}
