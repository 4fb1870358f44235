/**
 * HTML pages as a tree, parsed with `htmlparser2` (issue 23, docs/libraries.md: it won the page corpus
 * against regex tag scanning), and the few walks the page collectors need (html.ts for `blog_scraper` and
 * `deepbrowse`, github-trending.ts). Text never includes what sits in script, style, template, textarea or
 * noscript elements, and searches never look inside them.
 */
import { parseDocument } from 'htmlparser2';
import type { AnyNode, Element } from 'domhandler';

/** Elements whose content is not page text (raw text, templates). */
const HIDDEN = new Set(['script', 'style', 'template', 'textarea', 'noscript']);

/** The page's top-level nodes (entities decoded, tag names lower-cased, malformed nesting repaired). */
export function parsePage(html: string): AnyNode[] {
  return parseDocument(html).children;
}

/** Text of nodes, whitespace collapsed; '' for undefined. */
export function text(nodes: AnyNode[] | undefined): string {
  let out = '';
  const walk = (ns: AnyNode[]) => {
    for (const n of ns) {
      if (n.type === 'text') out += n.data;
      else if (n.type === 'tag' && !HIDDEN.has(n.name)) walk(n.children);
    }
  };
  if (nodes) walk(nodes);
  return out.replace(/\s+/g, ' ').trim();
}

/** Elements passing `test` in document order, not looking inside a match nor inside hidden elements. */
export function all(nodes: AnyNode[], test: (e: Element) => boolean, firstOnly = false): Element[] {
  const out: Element[] = [];
  const walk = (ns: AnyNode[]): boolean => {
    for (const n of ns) {
      if (n.type !== 'tag' && n.type !== 'script' && n.type !== 'style') continue;
      const e = n as Element;
      if (test(e)) {
        out.push(e);
        if (firstOnly) return true;
      } else if (!HIDDEN.has(e.name) && walk(e.children)) return true;
    }
    return false;
  };
  walk(nodes);
  return out;
}

/** The first element passing `test`, in document order. */
export const find = (nodes: AnyNode[], test: (e: Element) => boolean): Element | undefined => all(nodes, test, true)[0];

/** A test for elements with one of the (lower-case) names. */
export const named =
  (...names: string[]) =>
  (e: Element) =>
    names.includes(e.name);
