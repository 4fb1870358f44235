/**
 * issue 23's XML corpus: the repository's real POMs, maven-metadata and PubMed efetch fixtures, plus RSS,
 * Atom and nuspec documents with namespaces, escaped markup, numeric entities, comments, CDATA holding
 * `]]` and `>`, a DOCTYPE internal subset and a quoted `>` in an attribute. Each case names an element
 * path (local names) and the trimmed texts expected there (for the fixture files, read with a regex).
 */
import { readFileSync } from 'node:fs';

export type Case = { name: string; xml: string; path: string[]; want: string[] };
const f = (p: string): string => readFileSync(new URL(`../test/fixtures/${p}`, import.meta.url), 'utf8');
const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
<item><title>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</title><dc:creator>Ann</dc:creator><description><![CDATA[<p>New <img src=x onerror="alert(2)"> a]]b > c</p>]]></description></item>
<item><title>Second &#8212; &#x1F600;</title></item></channel></rss>`;
export const cases: Case[] = [
  {
    name: 'log4j-core POM',
    xml: f('insights/upstream/maven/org/apache/logging/log4j/log4j-core/2.17.1/log4j-core-2.17.1.pom'),
    path: ['project', 'artifactId'],
    want: ['log4j-core'],
  },
  {
    name: 'maven-metadata',
    xml: f('insights/upstream/maven/org/apache/logging/log4j/log4j-core/maven-metadata.xml'),
    path: ['metadata', 'versioning', 'versions', 'version'],
    want: [],
  },
  {
    name: 'pubmed efetch',
    xml: f('pipeline/pubmed-efetch.xml'),
    path: ['PubmedArticleSet', 'PubmedArticle', 'MedlineCitation', 'PMID'],
    want: [],
  },
  {
    name: 'RSS titles (escaped markup, numeric entities)',
    xml: rss,
    path: ['rss', 'channel', 'item', 'title'],
    want: ['<script>alert(1)</script> & more', 'Second — 😀'],
  },
  {
    name: 'RSS CDATA with ]] and >',
    xml: rss,
    path: ['rss', 'channel', 'item', 'description'],
    want: ['<p>New <img src=x onerror="alert(2)"> a]]b > c</p>'],
  },
  { name: 'RSS dc:creator (prefix)', xml: rss, path: ['rss', 'channel', 'item', 'creator'], want: ['Ann'] },
  {
    name: 'Atom default namespace',
    xml: `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title type="html">A &amp;amp; B</title><link href="https://x/a?b=1&amp;c=2"/></entry></feed>`,
    path: ['feed', 'entry', 'title'],
    want: ['A &amp; B'],
  },
  {
    name: 'nuspec with namespace + comment',
    xml: `<?xml version="1.0" encoding="utf-8"?>\n<!-- generated <by> nuget -->\n<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd"><metadata><id>Newtonsoft.Json</id><license type="expression">MIT</license><description>Json.NET &lt;fast&gt;</description></metadata></package>`,
    path: ['package', 'metadata', 'description'],
    want: ['Json.NET <fast>'],
  },
  {
    name: 'POM with DOCTYPE internal subset',
    xml: `<?xml version="1.0"?><!DOCTYPE project [<!ENTITY v "1.2.3">]><project><version>&v;</version></project>`,
    path: ['project', 'version'],
    want: ['1.2.3'],
  },
  {
    name: 'attribute value holding >',
    xml: `<feed><entry><link title="a > b" href="u"/><title>ok</title></entry></feed>`,
    path: ['feed', 'entry', 'title'],
    want: ['ok'],
  },
];
// expected values for the file fixtures, read independently with a regex
for (const c of cases)
  if (!c.want.length) {
    const last = c.path.at(-1)!;
    c.want = [...c.xml.matchAll(new RegExp(`<${last}(?:\\s[^>]*)?>([^<]*)</${last}>`, 'g'))].map((m) => m[1]!.trim());
  }
