/**
 * `node tools/compare-xml.ts`: issue 23's XML row. The corpus of tools/xml-corpus.ts through
 * src/platform/xml.ts and through `fast-xml-parser` (pass rate, failures), then the median time of
 * each to parse 50 concatenated PubMed efetch documents (185 KiB).
 */
import { XMLParser } from 'fast-xml-parser';
import { children, parseXml, type XmlNode } from '../src/platform/xml.ts';

import { cases, type Case } from './xml-corpus.ts';

const hand = (c: Case): string[] => {
  let nodes: XmlNode[] = [parseXml(c.xml)];
  for (const p of c.path) nodes = nodes.flatMap((n) => children(n, p));
  return nodes.map((n) => n.text.trim());
};
const fxp = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  processEntities: true,
  htmlEntities: true,
  parseTagValue: false,
  trimValues: true,
});
const lib = (c: Case): string[] => {
  let nodes: unknown[] = [fxp.parse(c.xml)];
  for (const p of c.path)
    nodes = nodes.flatMap((n) => {
      const v = (n as Record<string, unknown>)[p];
      return v === undefined ? [] : Array.isArray(v) ? v : [v];
    });
  return nodes.map((n) =>
    String(typeof n === 'object' && n ? ((n as Record<string, unknown>)['#text'] ?? '') : n).trim(),
  );
};
for (const [name, fn] of [
  ['xml.ts', hand],
  ['fast-xml-parser', lib],
] as const) {
  const failed: string[] = [];
  for (const c of cases) {
    try {
      const got = fn(c);
      if (JSON.stringify(got) !== JSON.stringify(c.want)) failed.push(`${c.name}: ${JSON.stringify(got).slice(0, 80)}`);
    } catch (e) {
      failed.push(`${c.name}: throws ${(e as Error).message.slice(0, 60)}`);
    }
  }
  const big = cases[2]!.xml.repeat(1).replace(/^<\?xml[^>]*>/, '');
  const doc = `<root>${Array.from({ length: 50 }, () => big.replace(/<!DOCTYPE[^>]*>/, '')).join('')}</root>`;
  const t: number[] = [];
  for (let r = 0; r < 12; r++) {
    const t0 = performance.now();
    try {
      fn({ name: '', xml: doc, path: ['root'], want: [] });
    } catch {}
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(16)} ${cases.length - failed.length}/${cases.length}  parse ${(doc.length / 1024).toFixed(0)} KiB: median ${t[6]!.toFixed(2)} ms`,
  );
  for (const x of failed) console.log(`   FAIL ${x}`);
}
