/**
 * Academic items in reports. An article is a paper when its collector stored paper facts in
 * `metadata` (authors, venue, DOI; the OpenAlex, Europe PMC, PubMed and Hugging Face papers
 * collectors do). `research` and `paper` reports show each paper as a card: linked title, authors
 * (first six, then "et al."), venue, publication date, DOI link, and the abstract cut at 600
 * characters as a quote. Plain Markdown, escaped like the rest of the report, so the report page,
 * Notion, Obsidian and the RSS feed all get the same text.
 */
import type { ArticleRow } from './queries-sources.ts';

export interface PaperFacts {
  authors: string[];
  venue: string | null;
  doi: string | null;
  date: string | null;
  abstract: string;
}

export const PAPER_REPORT_TYPES = ['research', 'paper'];

const strings = (v: unknown) =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && !!x.trim()) : [];
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
export const mdText = (s: string) => s.replace(/([\\`*_[\]<>#])/g, '\\$1');
/** A URL safe inside Markdown's `(...)`: parentheses and whitespace percent-encoded (encodeURIComponent keeps parentheses). */
export const mdUrl = (u: string) =>
  u.replace(/[()\s]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));

export function paperFacts(a: Pick<ArticleRow, 'metadata' | 'summary' | 'published_at'>): PaperFacts | null {
  const m = a.metadata ?? {};
  const authors = strings(m.authors);
  const venue = text(m.venue);
  const doi = text(m.doi);
  if (!authors.length && !venue && !doi && !('abstract' in m)) return null;
  const date = a.published_at ? new Date(a.published_at).toISOString().slice(0, 10) : null;
  return { authors, venue, doi, date, abstract: text(m.abstract) ?? a.summary };
}

function byline(f: PaperFacts): string {
  const who = f.authors.length > 6 ? `${f.authors.slice(0, 6).join(', ')} et al.` : f.authors.join(', ');
  const parts = [
    who && `*${mdText(who)}*`,
    f.venue && mdText(f.venue),
    f.date,
    f.doi && `DOI [${mdText(f.doi)}](https://doi.org/${mdUrl(f.doi)})`,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The Markdown card of one paper (lines, no trailing blank). `extra` lines go between byline and abstract. */
export function paperCard(a: ArticleRow, f: PaperFacts, extra: string[] = []): string[] {
  const lines = [`### [${mdText(a.title)}](${mdUrl(a.url)})`, ''];
  const by = byline(f);
  if (by) lines.push(by, '');
  if (extra.length) lines.push(...extra, '');
  const abstract = f.abstract.length > 600 ? `${f.abstract.slice(0, 599)}…` : f.abstract;
  if (abstract) lines.push(`> ${mdText(abstract)}`, '');
  return lines.slice(0, -1);
}

/** One line of paper facts for a model prompt ('' for non-papers). */
export function paperPromptFacts(a: ArticleRow): string {
  const f = paperFacts(a);
  if (!f) return '';
  return [
    f.authors.length && `Authors: ${f.authors.slice(0, 8).join(', ')}`,
    f.venue && `Venue: ${f.venue}`,
    f.doi && `DOI: ${f.doi}`,
  ]
    .filter(Boolean)
    .join('; ');
}
