/**
 * What a browser session shows the agent (browser-agent.ts) after each action, and the actions it
 * can take. `snapshot` runs inside the page (it is serialised by the browser driver): it numbers the
 * visible interactive elements in document order (marking each with `data-agent-index`, which a click
 * or fill then names) and reads the rendered text, cut at 6,000 characters, with at most 80 elements.
 * It must stay self-contained: no imports and no named inner functions (a bundler's name helpers
 * would not exist in the page).
 */

export interface PageElement {
  index: number;
  kind: 'link' | 'button' | 'input';
  text: string;
  href?: string;
}

export interface PageState {
  url: string;
  title: string;
  text: string;
  elements: PageElement[];
}

export type BrowserAction =
  | { action: 'open'; url: string }
  | { action: 'click'; element: number }
  | { action: 'fill'; element: number; value: string }
  | { action: 'scroll' }
  | { action: 'read' }
  | { action: 'reset' };

export function snapshot(): PageState {
  const seen: PageElement[] = [];
  const nodes = document.querySelectorAll('a[href], button, input, textarea, select, [role="button"]');
  for (const el of Array.from(nodes)) {
    const box = (el as HTMLElement).getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (seen.length >= 80) break;
    const index = seen.length;
    el.setAttribute('data-agent-index', String(index));
    const tag = el.tagName.toLowerCase();
    const kind = tag === 'a' ? 'link' : tag === 'button' || el.getAttribute('role') === 'button' ? 'button' : 'input';
    const label =
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person sees
      (el as HTMLElement).innerText?.trim() ||
      el.getAttribute('aria-label') ||
      el.getAttribute('placeholder') ||
      el.getAttribute('name') ||
      (el as HTMLInputElement).value ||
      '';
    const href = tag === 'a' ? (el as HTMLAnchorElement).href : undefined;
    seen.push({ index, kind, text: label.replace(/\s+/g, ' ').slice(0, 120), ...(href ? { href } : {}) });
  }
  return {
    url: location.href,
    title: document.title,
    // biome-ignore lint/performance/useDomNodeTextContent: rendered text, without script and hidden content
    text: (document.body?.innerText ?? '').replace(/\n{3,}/g, '\n\n').slice(0, 6000),
    elements: seen,
  };
}
