import { describe, expect, it } from 'vitest';
import { abstractText } from '../../../src/pipeline/collectors/openalex.ts';
import { parseTrending } from '../../../src/pipeline/collectors/github-trending.ts';
import { pubmedArticle } from '../../../src/pipeline/collectors/pubmed.ts';
import { paperFacts, paperCard } from '../../../src/pipeline/paper-cards.ts';
import { notePicks, paperCardExtras, parsePaperNotes, parsePaperReview } from '../../../src/pipeline/paper-stages.ts';
import type { ArticleRow } from '../../../src/pipeline/queries-sources.ts';

const paper = (metadata: Record<string, unknown>, summary = 'Short summary.'): ArticleRow => ({
  id: crypto.randomUUID(),
  source_id: null,
  url: 'https://doi.org/10.1/x(y)',
  title: 'A *starred* title',
  summary,
  published_at: new Date('2026-03-20T00:00:00Z'),
  collected_at: new Date('2026-03-20T01:00:00Z'),
  source_name: 'S',
  category: 'academic',
  metadata,
});

describe('collector parsers', () => {
  it('rebuilds an OpenAlex abstract from its inverted index, ignoring junk', () => {
    expect(abstractText({ world: [1], Hello: [0], '!': [2, 'x'], bad: 'nope' })).toBe('Hello world !');
    expect(abstractText(null)).toBe('');
  });

  it('reads a PubMed article: labelled abstract parts, collective authors, month names, DOI from ELocationID', () => {
    const item =
      pubmedArticle(`<MedlineCitation><PMID Version="1">123</PMID><Article><Journal><JournalIssue><PubDate><Year>2025</Year><Month>Dec</Month><Day>3</Day></PubDate></JournalIssue><Title>J &amp; K</Title></Journal>
      <ArticleTitle>T <sup>2</sup></ArticleTitle><ELocationID EIdType="doi">10.5/abc</ELocationID><Abstract><AbstractText Label="AIM">a</AbstractText><AbstractText>b</AbstractText></Abstract>
      <AuthorList><Author><CollectiveName>Group</CollectiveName></Author><Author><LastName>Li</LastName><ForeName>Wei</ForeName></Author></AuthorList></Article></MedlineCitation>`)!;
    expect(item).toMatchObject({
      title: 'T 2',
      url: 'https://pubmed.ncbi.nlm.nih.gov/123/',
      summary: 'AIM: a b',
      published_at: '2025-12-03T00:00:00.000Z',
    });
    expect(item.metadata).toMatchObject({ pmid: '123', doi: '10.5/abc', authors: ['Group', 'Wei Li'], venue: 'J & K' });
    expect(pubmedArticle('<PMID>abc</PMID>')).toBeNull();
  });

  it('skips trending rows without an owner/repo link', () => {
    const html =
      '<article class="Box-row"><h2><a href="/only-owner">x</a></h2></article><article class="other"><h2><a href="/a/b">y</a></h2></article>' +
      '<article class="Box-row"><h2><a href="/a/b.c">z</a></h2><p>d</p><a href="/a/b.c/stargazers">1,024</a> 12 stars this week</article>';
    expect(
      parseTrending(html).map((i) => [i.title, i.metadata?.stars_total, i.metadata?.stars_period, i.metadata?.period]),
    ).toEqual([['a/b.c', 1024, 12, 'this week']]);
  });
});

describe('paper cards', () => {
  it('are only for items with paper facts, escape Markdown and cut long author lists', () => {
    expect(paperFacts(paper({}))).toBeNull();
    const a = paper({ authors: ['A', 'B', 'C', 'D', 'E', 'F', 'G'], venue: 'V_1', doi: '10.1/x y' }, 'x'.repeat(700));
    const lines = paperCard(a, paperFacts(a)!, ['extra']);
    expect(lines[0]).toBe('### [A \\*starred\\* title](https://doi.org/10.1/x%28y%29)');
    expect(lines[2]).toBe(
      '*A, B, C, D, E, F et al.* · V\\_1 · 2026-03-20 · DOI [10.1/x y](https://doi.org/10.1/x%20y)',
    );
    expect(lines[4]).toBe('extra');
    expect(lines[6]).toBe(`> ${'x'.repeat(599)}…`);
  });
});

describe('paper stage answers', () => {
  it('reviews: out-of-range and duplicate indices dropped, unknown recommendation becomes worth_reading', () => {
    const r = parsePaperReview(
      JSON.stringify({
        digest_summary: 'D',
        papers: [
          { index: 0, recommendation: 'Must Read', core_method: 'm', why_it_matters: 'w', note_candidate: true },
          { index: 0, recommendation: 'skim', core_method: 'dup' },
          { index: 5, core_method: 'out of range' },
          { index: 1, recommendation: 'essential', core_method: 'n' },
          { index: 2, recommendation: 'skim' },
        ],
      }),
      3,
    );
    expect(r.digest_summary).toBe('D');
    expect([...r.reviews]).toEqual([
      [0, { recommendation: 'must_read', core_method: 'm', why_it_matters: 'w', note_candidate: true }],
      [1, { recommendation: 'worth_reading', core_method: 'n', why_it_matters: '', note_candidate: false }],
    ]);
    expect(() => parsePaperReview('{"papers": []}', 3)).toThrow('neither digest_summary nor papers');
  });

  it('notes need a summary; picks prefer note candidates, then must-reads, then the first three', () => {
    expect([
      ...parsePaperNotes('{"notes": [{"index": 1, "summary": "s", "method": ["a", 2, ""]}, {"index": 0}]}', 2),
    ]).toEqual([[1, { summary: 's', core_contributions: [], method: ['a', '2'], limitations: [] }]]);
    expect(() => parsePaperNotes('{"notes": []}', 1)).toThrow('no usable notes');
    const base = { core_method: 'c', why_it_matters: 'w' };
    const ids = ['a', 'b', 'c', 'd'];
    expect(notePicks(ids, { b: { ...base, recommendation: 'skim', note_candidate: true } })).toEqual(['b']);
    expect(notePicks(ids, { c: { ...base, recommendation: 'must_read', note_candidate: false } })).toEqual(['c']);
    expect(notePicks(ids, undefined)).toEqual(['a', 'b', 'c']);
    expect(paperCardExtras(undefined, undefined)).toEqual([]);
  });
});
