/**
 * A minimal, non-validating XML reader for registry documents (POMs, maven-metadata.xml, nuspecs):
 * elements, text, CDATA and the five named plus numeric character entities; comments, processing
 * instructions and DOCTYPE are skipped; attributes are kept; namespace prefixes are kept on names.
 * Malformed input throws (callers turn that into an upstream error).
 */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

export function parseXml(src: string): XmlNode {
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const top = stack[stack.length - 1]!;
    if (lt < 0) {
      top.text += decode(src.slice(i));
      break;
    }
    if (lt > i) top.text += decode(src.slice(i, lt));
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
      const end = src.indexOf('>', lt);
      if (end < 0) throw new Error('unterminated declaration');
      i = end + 1;
    } else if (src[lt + 1] === '/') {
      const end = src.indexOf('>', lt);
      const name = src.slice(lt + 2, end).trim();
      const node = stack.pop();
      if (!node || node.name !== name || stack.length === 0) throw new Error(`mismatched </${name}>`);
      i = end + 1;
    } else {
      const end = src.indexOf('>', lt);
      if (end < 0) throw new Error('unterminated tag');
      let body = src.slice(lt + 1, end);
      const selfClosing = body.endsWith('/');
      if (selfClosing) body = body.slice(0, -1);
      const name = /^[^\s/>]+/.exec(body)?.[0];
      if (!name) throw new Error('empty tag name');
      const attrs: Record<string, string> = {};
      for (const a of body.slice(name.length).matchAll(/([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) attrs[a[1]!] = decode(a[3] ?? a[4] ?? '');
      const node: XmlNode = { name, attrs, children: [], text: '' };
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
