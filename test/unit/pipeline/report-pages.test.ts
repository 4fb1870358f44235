import { describe, expect, it } from 'vitest';
import { reportDetailPage, reportListPage } from '../../../src/pipeline/render/pages.ts';

const base = {
  id: 'r1',
  title: 'Digest',
  report_date: '2026-11-20',
  time_period: 'daily',
  report_type: 'daily',
  tldr: 't',
};

describe('report pages count articles in correct English', () => {
  it.each([
    [0, '0 articles'],
    [1, '1 article'],
    [2, '2 articles'],
  ])('list page: %i', (n, want) => {
    expect(reportListPage([{ ...base, article_count: n }], 1, false)).toContain(`daily · daily · ${want}</div>`);
  });

  it('detail page: 1 article', () => {
    const html = reportDetailPage({ ...base, article_count: 1, content: 'x', published_to: ['rss'] });
    expect(html).toContain('daily · 1 article · published to rss');
  });
});
