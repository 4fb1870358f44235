/** Tables and facts of books, requests and transactions as the pages show them (text only; hono/jsx escapes). */
import type { BookRow, RequestRow } from '../queries-books.ts';
import { h, type Node } from './html.ts';

export const STATUS_TEXT: Record<number, string> = {
  0: 'Listed',
  1: 'Bought, waiting for the condition check',
  2: 'Checked and charged, waiting for delivery',
  3: 'Delivered and paid',
  5: 'Unlisted',
};

export const price = (p: string | number) => `$${Number(p).toFixed(2)}`;
const day = (d: Date | string) => new Date(d).toISOString().slice(0, 10);

export interface Column<T> {
  label: string;
  cell: (row: T) => Node;
}

/** A table with a header row; below 40em each row is a card whose cells carry their column's label. */
export function table<T>(caption: string, rows: readonly T[], columns: Column<T>[], empty: string): Node {
  if (!rows.length) return h('p', null, empty);
  return h(
    'table',
    null,
    h('caption', { class: 'hint' }, caption),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        columns.map((col) => h('th', { scope: 'col' }, col.label)),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map((r) =>
        h(
          'tr',
          null,
          columns.map((col) => h('td', { 'data-label': col.label }, col.cell(r))),
        ),
      ),
    ),
  );
}

export const bookTitle = (b: BookRow): Node => h('a', { href: `/books/${b.id}` }, b.name);

export const BOOK_COLUMNS: Column<BookRow>[] = [
  { label: 'Title', cell: bookTitle },
  { label: 'Course', cell: (b) => b.course },
  { label: 'Edition', cell: (b) => String(b.edition) },
  { label: 'Condition', cell: (b) => b.condition },
  { label: 'Price', cell: (b) => price(b.price) },
];

export const withStatus: Column<BookRow> = { label: 'Status', cell: (b) => STATUS_TEXT[b.status] ?? String(b.status) };

export function bookFacts(b: BookRow): Node {
  const facts: [string, string][] = [
    ['Course', b.course],
    ['Edition', String(b.edition)],
    ['Condition', b.condition],
    ['Price', price(b.price)],
    ['ISBN', b.isbn ?? 'not given'],
    ['Listed on', day(b.posted_at)],
    ['Status', STATUS_TEXT[b.status] ?? String(b.status)],
  ];
  return h(
    'dl',
    { class: 'facts' },
    facts.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
    b.comments ? [h('dt', null, 'Comments'), h('dd', null, b.comments)] : null,
  );
}

export const REQUEST_COLUMNS: Column<RequestRow>[] = [
  { label: 'Title', cell: (r) => r.name },
  { label: 'Course', cell: (r) => r.course },
  { label: 'ISBN', cell: (r) => r.isbn ?? '' },
  { label: 'Requested on', cell: (r) => day(r.requested_at) },
  { label: 'Status', cell: (r) => (r.status === 1 ? 'Fulfilled' : 'Open') },
];
