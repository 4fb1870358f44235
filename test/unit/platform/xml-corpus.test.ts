/** The XML corpus (tools/xml-corpus.ts) through src/platform/xml.ts, and what it must reject. */
import { describe, expect, it } from 'vitest';
import { children, descendants, find, parseXml, textContent, type XmlNode } from '../../../src/platform/xml.ts';
import { cases, type Case } from '../../../tools/xml-corpus.ts';

const hand = (c: Case): string[] => {
  let nodes: XmlNode[] = [parseXml(c.xml)];
  for (const p of c.path) nodes = nodes.flatMap((n) => children(n, p));
  return nodes.map((n) => n.text.trim());
};

describe('XML corpus', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_n, c) => {
    expect(c.want.length).toBeGreaterThan(0);
    expect(hand(c)).toEqual(c.want);
  });
  it('declared entities are expanded once, not recursively', () => {
    const doc = '<!DOCTYPE a [<!ENTITY x "&amp;y;"><!ENTITY y "boom">]><a>&x;|&y;</a>';
    expect(parseXml(doc).children[0]!.text).toBe('&y;|boom');
  });
  it.each(['<a><b></a>', '<a title="x>', '<!DOCTYPE a [<!ENTITY x "1">', '<?xml version="1.0"'])('%s throws', (doc) => {
    expect(() => parseXml(doc)).toThrow();
  });
  it('textContent reads mixed content in document order; find and descendants walk in document order', () => {
    const doc = parseXml('<a>x <b>y <c>z</c></b> w<d/>v<b>q</b></a>');
    expect(textContent(doc)).toBe('x y z wvq');
    expect(textContent(find(doc, 'c'))).toBe('z');
    expect(descendants(doc, 'b').map((n) => textContent(n))).toEqual(['y z', 'q']);
    expect(textContent(find(doc, 'nope'))).toBe('');
  });
});
