/**
 * The one XML reader (issue 23): registry documents in insights (POMs, maven-metadata.xml, nuspecs) and
 * the pipeline's feeds (RSS 1.0/2.0, Atom) and PubMed efetch answers. A minimal, non-validating reader:
 * elements, text, CDATA, the five named and numeric character entities and the general entities a
 * DOCTYPE's internal subset declares (one level, never re-expanded); comments, processing instructions and
 * DOCTYPE are skipped; attributes are kept (a quoted `>` included); namespace prefixes are kept on names;
 * each child records where it sits in its parent's text, so mixed content reads back in order
 * (`textContent`). Malformed input throws (callers turn that into an upstream error).
 *
 * Why not `fast-xml-parser` (issue 23, docs/libraries.md): on the shared corpus (tools/xml-corpus.ts:
 * real POMs, maven-metadata, PubMed efetch, RSS/Atom/nuspec with namespaces, entities, comments, CDATA, an
 * internal DTD subset, a quoted `>`) both pass 10/10 (this module 8/10 before two fixes); parsing 185 KiB
 * it is faster (median 23 ms against 34 ms for fast-xml-parser 5.12.1, a noisy shared machine: another run
 * 36 against 45 ms), and it is 1.4 KB minified against 64.6 KB (gzip 0.7 against 21.5 KB) for the library.
 * `node tools/compare-xml.ts` measures both.
 */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** text directly inside this element (children's text excluded) */
  text: string;
  /** where this element starts in its parent's `text` (0 for the document) */
  at: number;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string, declared: Record<string, string> = {}): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[\w.-]+);/gi, (m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? declared[e] ?? m;
  });
}

/** Index of the `>` closing a tag that starts at `from`, skipping `>` inside quoted attribute values. */
function tagEnd(src: string, from: number): number {
  let quote = '';
  for (let i = from; i < src.length; i++) {
    const c = src[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

/**
 * `<!DOCTYPE ... [internal subset]>`: the end index, and the internal general entities (`<!ENTITY n "v">`)
 * with their value's own character references decoded once; entities inside values are not expanded
 * again (no entity-expansion blow-up), external entities are ignored.
 */
function doctype(src: string, lt: number, declared: Record<string, string>): number {
  const bracket = src.indexOf('[', lt);
  const gt = src.indexOf('>', lt);
  if (bracket < 0 || (gt >= 0 && gt < bracket)) return gt;
  const close = src.indexOf(']', bracket);
  if (close < 0) return -1;
  for (const m of src.slice(bracket + 1, close).matchAll(/<!ENTITY\s+([\w.-]+)\s+("([^"]*)"|'([^']*)')\s*>/g)) {
    declared[m[1]!] = decode(m[3] ?? m[4] ?? '');
  }
  return src.indexOf('>', close);
}

export function parseXml(src: string): XmlNode {
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '', at: 0 };
  const stack: XmlNode[] = [root];
  const declared: Record<string, string> = {};
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const top = stack[stack.length - 1]!;
    if (lt < 0) {
      top.text += decode(src.slice(i), declared);
      break;
    }
    if (lt > i) top.text += decode(src.slice(i, lt), declared);
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      if (end < 0) throw new Error('unterminated comment');
      i = end + 3;
    } else if (src.startsWith('<![CDATA[', lt)) {
      const end = src.indexOf(']]>', lt + 9);
      if (end < 0) throw new Error('unterminated CDATA');
      top.text += src.slice(lt + 9, end);
      i = end + 3;
    } else if (src.startsWith('<?', lt) || src.startsWith('<!', lt)) {
      const end = src.startsWith('<!DOCTYPE', lt)
        ? doctype(src, lt, declared)
        : src.startsWith('<?', lt)
          ? src.indexOf('?>', lt) + 1
          : src.indexOf('>', lt);
      if (end <= 0) throw new Error('unterminated declaration');
      i = end + 1;
    } else if (src[lt + 1] === '/') {
      const end = src.indexOf('>', lt);
      const name = src.slice(lt + 2, end).trim();
      const node = stack.pop();
      if (!node || node.name !== name || stack.length === 0) throw new Error(`mismatched </${name}>`);
      i = end + 1;
    } else {
      const end = tagEnd(src, lt);
      if (end < 0) throw new Error('unterminated tag');
      let body = src.slice(lt + 1, end);
      const selfClosing = body.endsWith('/');
      if (selfClosing) body = body.slice(0, -1);
      const name = /^[^\s/>]+/.exec(body)?.[0];
      if (!name) throw new Error('empty tag name');
      const attrs: Record<string, string> = {};
      for (const a of body.slice(name.length).matchAll(/([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g))
        attrs[a[1]!] = decode(a[3] ?? a[4] ?? '', declared);
      const node: XmlNode = { name, attrs, children: [], text: '', at: top.text.length };
      top.children.push(node);
      if (!selfClosing) stack.push(node);
      i = end + 1;
    }
  }
  if (stack.length !== 1) throw new Error('unclosed element');
  return root;
}

/** First child element with the local name (prefix ignored). */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name || c.name.endsWith(`:${name}`));
}

export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  return node ? node.children.filter((c) => c.name === name || c.name.endsWith(`:${name}`)) : [];
}

/** Trimmed text of a child path, '' when absent. */
export function textAt(node: XmlNode | undefined, ...path: string[]): string {
  let n = node;
  for (const p of path) n = child(n, p);
  return n ? n.text.trim() : '';
}

/** Every descendant element with the local name, in document order, not looking inside a match. */
export function descendants(node: XmlNode | undefined, name: string): XmlNode[] {
  const out: XmlNode[] = [];
  const walk = (n: XmlNode) => {
    for (const c of n.children) {
      if (c.name === name || c.name.endsWith(`:${name}`)) out.push(c);
      else walk(c);
    }
  };
  if (node) walk(node);
  return out;
}

/** The first descendant element with the local name, in document order. */
export function find(node: XmlNode | undefined, name: string): XmlNode | undefined {
  if (!node) return undefined;
  for (const c of node.children) {
    if (c.name === name || c.name.endsWith(`:${name}`)) return c;
    const hit = find(c, name);
    if (hit) return hit;
  }
  return undefined;
}

/** All text inside an element, its children's included, in document order ('' when absent). */
export function textContent(node: XmlNode | undefined): string {
  if (!node) return '';
  let out = '';
  let pos = 0;
  for (const c of node.children) {
    out += node.text.slice(pos, c.at) + textContent(c);
    pos = c.at;
  }
  return out + node.text.slice(pos);
}
