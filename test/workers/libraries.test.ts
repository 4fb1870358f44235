/**
 * issue 23 inside workerd: the format modules whose library/hand-written choice docs/libraries.md records
 * run in the Workers runtime (the generated SPDX table with the expression parser, the SigV4 signer, the XML
 * reader, the pipeline's feed parser on it, its page parser on htmlparser2, its Markdown on marked, the ZIP reader).
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { normalizeLicense } from '../../src/insights/ingest/licenses.ts';
import { parseXml } from '../../src/platform/xml.ts';
import { parseFeed } from '../../src/pipeline/collectors/feed.ts';
import { parseHtml } from '../../src/pipeline/collectors/html.ts';
import { renderMarkdown } from '../../src/pipeline/render/markdown.ts';
import { readZipEntry, zipEntries } from '../../src/insights/ingest/zip.ts';
import { SPDX_DEPRECATED_IDS, SPDX_EXCEPTIONS, SPDX_IDS } from '../../src/insights/ingest/spdx-ids.ts';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { sign } from '../../src/webhooks/sigv4.ts';
import { suiteCases } from '../../tools/sigv4-suite.ts';
import { SUITE_FILES } from '../support/sigv4-suite-files.ts';

describe('SPDX under workerd', () => {
  it('every id, deprecated id and exception is recognised and spelled canonically', () => {
    const ids = `${SPDX_IDS} ${SPDX_DEPRECATED_IDS}`.split(/\s+/);
    expect(ids.length).toBeGreaterThan(600);
    expect(ids.filter((id) => normalizeLicense(id.toLowerCase()) !== id)).toEqual([]);
    const exc = SPDX_EXCEPTIONS.split(/\s+/);
    expect(exc.filter((e) => normalizeLicense(`MIT WITH ${e.toUpperCase()}`) !== `MIT WITH ${e}`)).toEqual([]);
    expect(normalizeLicense('MIT AND')).toBe('non-standard');
  });
});

describe('SigV4 under workerd', () => {
  it("signs every case of AWS's test suite as the suite says", async () => {
    const cases = suiteCases(SUITE_FILES);
    expect(cases.length).toBe(38);
    const wrong: string[] = [];
    for (const c of cases) {
      const headers: [string, string][] = [...c.headers, ['X-Amz-Date', c.amzDate]];
      if (c.signBody) headers.push(['X-Amz-Content-Sha256', await sha256Hex(c.body)]);
      if (c.token && !c.omitToken) headers.push(['X-Amz-Security-Token', c.token]);
      const r = await sign(
        {
          method: c.method,
          url: `https://${c.host}${c.target}`,
          headers,
          body: c.body,
          region: c.region,
          service: c.service,
          amzDate: c.amzDate,
          normalizePath: c.normalize,
        },
        c,
      );
      if (r.canonical !== c.canonicalRequest || r.signature !== c.signature) wrong.push(c.name);
    }
    expect(wrong).toEqual([]);
  });
});

describe('XML reader under workerd', () => {
  it('reads declared entities, CDATA, comments and a quoted > in an attribute', () => {
    const doc = parseXml(
      '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY v "1.2.3">]><!-- <x> --><p a="1 > 0">' +
        '<v>&v;</v><d><![CDATA[<b>]]></d></p>',
    );
    const p = doc.children[0]!;
    expect([p.attrs.a, p.children[0]!.text, p.children[1]!.text]).toEqual(['1 > 0', '1.2.3', '<b>']);
  });
});

describe('pipeline feed and page parsing under workerd', () => {
  it('reads an RSS feed on the XML reader and a page with htmlparser2', () => {
    const rss =
      '<rss><channel><title>F</title><item><title>A &amp; B</title><link>https://x.example/a</link></item>' +
      '</channel></rss>';
    const feed = parseFeed(rss, 'https://x.example/');
    expect([feed.title, feed.items.map((i) => [i.title, i.url])]).toEqual(['F', [['A & B', 'https://x.example/a']]]);
    const page = parseHtml(
      '<base href="https://y.example/d/"><title>P</title>' +
        '<!-- <article><a href="/no">x</a></article> --><article><h2><a href=p1>One</a></h2><p>Lead</article>',
      'https://x.example/',
    );
    expect([page.title, page.items.map((i) => [i.title, i.url, i.summary])]).toEqual([
      'P',
      [['One', 'https://y.example/d/p1', 'Lead']],
    ]);
  });
});

describe('report Markdown (marked) under workerd', () => {
  it('renders escaped titles as text, raw HTML as text and drops javascript: hrefs', () => {
    expect(
      renderMarkdown('- [A \\[b\\]](https://x.example/a) <img src=x onerror=alert(1)> [c](javascript:alert(1))'),
    ).toBe(
      '<ul>\n<li><a href="https://x.example/a" rel="nofollow noopener noreferrer">A [b]</a> ' +
        '&lt;img src=x onerror=alert(1)&gt; c</li>\n</ul>',
    );
  });
});

describe('ZIP reader (fflate inflate) under workerd', () => {
  it('reads deflated and stored entries and rejects a corrupted one', async () => {
    const enc = new TextEncoder();
    const zip = zipSync({
      'A-1.json': [enc.encode('{"id":"A-1"}'.repeat(50)), { level: 9 }],
      'B.txt': [enc.encode('b'), { level: 0 }],
    });
    const entries = zipEntries(zip);
    const texts = await Promise.all(entries.map(async (e) => new TextDecoder().decode(await readZipEntry(zip, e))));
    expect(entries.map((e) => e.method)).toEqual([8, 0]);
    expect(texts).toEqual(['{"id":"A-1"}'.repeat(50), 'b']);
    const bad = zip.slice();
    bad[entries[1]!.localOffset + 30 + 'B.txt'.length] ^= 1; // flip the stored byte
    await expect(readZipEntry(bad, entries[1]!)).rejects.toThrow(/CRC-32/);
  });
});
