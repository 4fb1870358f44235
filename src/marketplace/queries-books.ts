/**
 * SQL for books for sale and requested books, including matching (the predicate of matching.ts:
 * equal ISBN-13, or equal normalised course, or one normalised name containing the other with the
 * shorter at least MIN_NAME_MATCH long) and ranked full-text search over the `search` tsvector
 * (GIN index; name and ISBN weight A, course weight B).
 */
import type { Queryable, Statement } from '../platform/db.ts';
import { IN_CART_MARKER } from './book-status.ts';
import { MIN_NAME_MATCH } from './matching.ts';

export interface BookRow {
  id: string;
  owner_id: string;
  name: string;
  edition: number;
  course: string;
  price: string;
  condition: string;
  comments: string | null;
  isbn: string | null;
  status: number;
  buyer_id: string | null;
  posted_at: Date;
  in_cart?: boolean;
}

export const BOOK_COLS = `b.id::text, b.owner_id::text, b.name, b.edition, b.course, b.price::text, b.condition, b.comments, b.isbn,
  b.status, b.buyer_id::text, b.posted_at`;

/** A book as the original's Textbook document; in-cart books carry the original's marker status 42. */
export function publicBook(b: BookRow) {
  return {
    _id: b.id,
    name: b.name,
    edition: b.edition,
    course: b.course,
    price: Number(b.price),
    condition: b.condition,
    comments: b.comments ?? '',
    ISBN: b.isbn,
    date: new Date(b.posted_at).getTime(),
    status: b.in_cart ? IN_CART_MARKER : b.status,
    owner: b.owner_id,
    buyer: b.buyer_id ?? '',
  };
}

export interface RequestRow {
  id: string;
  owner_id: string;
  name: string;
  course: string;
  isbn: string | null;
  status: number;
  requested_at: Date;
}

export function publicRequest(r: RequestRow) {
  return {
    _id: r.id,
    name: r.name,
    course: r.course,
    ISBN: r.isbn,
    status: r.status,
    owner: r.owner_id,
    date: new Date(r.requested_at).getTime(),
  };
}

const IN_CART = (param: string) =>
  `EXISTS (SELECT 1 FROM market.cart_items ci WHERE ci.book_id = b.id AND ci.user_id = ${param}) AS in_cart`;

/** Where a listing page starts: after the book at (posted_at in microseconds since the epoch, id). */
export interface ListingCursor {
  postedUs: string;
  id: string;
}

export type ListedRow = BookRow & { posted_us: string };

const AFTER_CURSOR = (t: string, us: string, id: string) =>
  `AND (${t}.posted_at, ${t}.id) < (timestamptz 'epoch' + ${us}::bigint * interval '1 microsecond', ${id}::bigint)`;

/**
 * Listed books, newest first; with a viewer, the viewer's own books are left out and cart items
 * marked. A page starts at `offset` (the original's skip: the index walks what it skips) or, with a
 * cursor, right after the cursor's book (keyset: the index seeks to it, so every page costs the same).
 * Each row carries `posted_us`, the exact key the next page's cursor is made of.
 */
export function listingStatement(
  viewer: string | undefined,
  limit: number,
  offset: number,
  after?: ListingCursor,
): Statement {
  const cursor = after ? [after.postedUs, after.id] : [];
  return viewer
    ? { text: listingSql(true, !!after), params: [limit, offset, viewer, ...cursor] }
    : { text: listingSql(false, !!after), params: [limit, offset, ...cursor] };
}

/**
 * The listing statement: $1 limit, $2 offset, then $3 viewer (signed in), then the cursor. The page's
 * keys are found first, by an index-only walk of `books_listed_walk_idx` (keys and owner_id, so the
 * viewer's filter needs no row either): what an offset skips costs an index entry, not a row read; only
 * the page's own books are read from the table. `k.id > 0` (every book) is that index's predicate, which
 * keeps the search's walks off it (migration 0202).
 */
export function listingSql(signedIn: boolean, cursor: boolean): string {
  const viewer = signedIn ? 'AND k.owner_id <> $3' : '';
  const keyset = cursor ? AFTER_CURSOR('k', signedIn ? '$4' : '$3', signedIn ? '$5' : '$4') : '';
  return `SELECT ${BOOK_COLS}, (EXTRACT(EPOCH FROM b.posted_at) * 1000000)::bigint::text AS posted_us${signedIn ? `, ${IN_CART('$3')}` : ''}
    FROM (SELECT k.id, k.posted_at FROM market.books k WHERE k.status = 0 AND k.id > 0 ${viewer} ${keyset}
          ORDER BY k.posted_at DESC, k.id DESC LIMIT $1 OFFSET $2) page
    JOIN market.books b ON b.id = page.id
    ORDER BY page.posted_at DESC, page.id DESC`;
}

/**
 * Search ranks a bounded candidate set: the SEARCH_CANDIDATES newest listed books that match (the
 * planner finds them either by walking `books_search_walk_idx` newest first and testing each entry,
 * which stops early for common words, or through the GIN index over `search_prefixes` for rare ones),
 * then orders those by ts_rank. A search's cost is bounded by the candidates, not by how many books
 * match; when more books match than that, older ones are not ranked (docs/marketplace.md).
 * A prefix term `calc:*` is looked up as the exact lexeme `calc` among every word's prefixes
 * (migration 0202), so GIN intersects exact posting lists instead of gathering every word that starts
 * with it; the query itself is still tested (`@@~`, the same match with a neutral estimate), so words
 * over 24 characters keep their whole meaning. Each candidate is ranked from the index entry it was
 * found by; only the page's books are read from the table. The public and the signed-in search are two
 * statements, so each gets its own plan.
 */
export const SEARCH_CANDIDATES = 100;

const searchSql = (ownerFilter: string, limit: string) => `WITH candidates AS MATERIALIZED (
    SELECT b.id, b.posted_at, ts_rank(b.search, to_tsquery('simple', $1)) AS rank FROM market.books b
    WHERE b.search_prefixes @@ market.search_prefix_query(to_tsquery('simple', $1))
      AND b.search OPERATOR(market.@@~) to_tsquery('simple', $1) AND b.status = 0 ${ownerFilter}
    ORDER BY b.posted_at DESC, b.id DESC LIMIT ${SEARCH_CANDIDATES}),
  ranked AS MATERIALIZED (SELECT c.id, c.posted_at, c.rank FROM candidates c
    ORDER BY c.rank DESC, c.posted_at DESC, c.id DESC LIMIT ${limit})
  SELECT ${BOOK_COLS}, r.rank
  FROM ranked r JOIN market.books b ON b.id = r.id
  ORDER BY r.rank DESC, r.posted_at DESC, r.id DESC`;

/** Public search: $1 tsquery, $2 limit. */
export const SEARCH_SQL = searchSql('', '$2');
/** Signed-in search: $1 tsquery, $2 viewer (own books left out), $3 limit. */
export const SEARCH_SQL_VIEWER = searchSql('AND b.owner_id <> $2', '$3');

export function searchStatement(tsquery: string, viewer: string | undefined, limit: number): Statement {
  return viewer
    ? { text: SEARCH_SQL_VIEWER, params: [tsquery, viewer, limit] }
    : { text: SEARCH_SQL, params: [tsquery, limit] };
}

export async function bookById(db: Queryable, id: string): Promise<BookRow | undefined> {
  return (await db.query<BookRow>(`SELECT ${BOOK_COLS} FROM market.books b WHERE b.id = $1`, [id]))[0];
}

export async function booksOfOwner(db: Queryable, owner: string, statuses: readonly number[]): Promise<BookRow[]> {
  return db.query<BookRow>(
    `SELECT ${BOOK_COLS} FROM market.books b WHERE b.owner_id = $1 AND b.status = ANY($2::smallint[])
    ORDER BY b.posted_at DESC, b.id DESC LIMIT 500`,
    [owner, statuses],
  );
}

export async function booksBoughtBy(db: Queryable, buyer: string): Promise<BookRow[]> {
  return db.query<BookRow>(
    `SELECT ${BOOK_COLS} FROM market.books b WHERE b.buyer_id = $1 AND b.status IN (1, 2, 3)
    ORDER BY b.status_changed_at DESC, b.id DESC LIMIT 500`,
    [buyer],
  );
}

/** Listed books matched to the user's open requests, newest first, cart items marked. */
export async function matchedBooks(db: Queryable, userId: string): Promise<BookRow[]> {
  return db.query<BookRow>(
    `SELECT ${BOOK_COLS}, ${IN_CART('$1')} FROM market.books b
     WHERE b.status = 0 AND b.owner_id <> $1 AND b.id IN (
       SELECT m.book_id FROM market.matches m JOIN market.requests r ON r.id = m.request_id WHERE r.owner_id = $1 AND r.status = 0)
     ORDER BY b.posted_at DESC, b.id DESC LIMIT 200`,
    [userId],
  );
}

export interface NewBook {
  owner: string;
  name: string;
  nameNorm: string;
  edition: number;
  course: string;
  courseNorm: string;
  price: number;
  condition: string;
  comments: string | null;
  isbn: string | null;
}

export async function insertBook(tx: Queryable, b: NewBook): Promise<BookRow> {
  const [row] = await tx.query<BookRow>(
    `INSERT INTO market.books AS b (owner_id, name, name_norm, edition, course, course_norm, price, condition, comments, isbn)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${BOOK_COLS}`,
    [b.owner, b.name, b.nameNorm, b.edition, b.course, b.courseNorm, b.price, b.condition, b.comments, b.isbn],
  );
  return row!;
}

const NAME_MATCH = (
  a: string,
  b: string,
) => `(CASE WHEN length(${a}) <= length(${b}) THEN length(${a}) >= ${MIN_NAME_MATCH} AND strpos(${b}, ${a}) > 0
  ELSE length(${b}) >= ${MIN_NAME_MATCH} AND strpos(${a}, ${b}) > 0 END)`;

export interface MatchRow {
  request_id: string;
  request_name: string;
  book_id: string;
  book_name: string;
  user_id: string;
  email: string;
}

/** Records matches of a new book against other users' open requests; returns them. */
export async function matchNewBook(
  tx: Queryable,
  book: { id: string; owner: string; nameNorm: string; courseNorm: string; isbn: string | null },
): Promise<MatchRow[]> {
  return tx.query<MatchRow>(
    `WITH hits AS (
       INSERT INTO market.matches (request_id, book_id)
       SELECT r.id, $1 FROM market.requests r
       WHERE r.status = 0 AND r.owner_id <> $2
         AND ((r.isbn IS NOT NULL AND r.isbn = $5) OR r.course_norm = $4 OR ${NAME_MATCH('r.name_norm', '$3::text')})
       ON CONFLICT DO NOTHING RETURNING request_id, book_id)
     SELECT h.request_id::text, r.name AS request_name, h.book_id::text, b.name AS book_name, u.id::text AS user_id, u.email
     FROM hits h JOIN market.requests r ON r.id = h.request_id JOIN market.users u ON u.id = r.owner_id JOIN market.books b ON b.id = h.book_id`,
    [book.id, book.owner, book.nameNorm, book.courseNorm, book.isbn],
  );
}

/** Records matches of a request (new, or still open when recomputing) against listed books of others. */
export async function matchRequest(tx: Queryable, requestId: string): Promise<MatchRow[]> {
  return tx.query<MatchRow>(
    `WITH req AS (SELECT * FROM market.requests WHERE id = $1 AND status = 0),
     hits AS (
       INSERT INTO market.matches (request_id, book_id)
       SELECT req.id, b.id FROM req JOIN market.books b ON b.status = 0 AND b.owner_id <> req.owner_id
         AND ((req.isbn IS NOT NULL AND b.isbn = req.isbn) OR b.course_norm = req.course_norm OR ${NAME_MATCH('b.name_norm', 'req.name_norm')})
       ON CONFLICT DO NOTHING RETURNING request_id, book_id)
     SELECT h.request_id::text, r.name AS request_name, h.book_id::text, b.name AS book_name, u.id::text AS user_id, u.email
     FROM hits h JOIN market.requests r ON r.id = h.request_id JOIN market.users u ON u.id = r.owner_id JOIN market.books b ON b.id = h.book_id`,
    [requestId],
  );
}

export interface NewRequest {
  owner: string;
  name: string;
  nameNorm: string;
  course: string;
  courseNorm: string;
  isbn: string | null;
}

export const REQUEST_COLS = 'id::text, owner_id::text, name, course, isbn, status, requested_at';

export async function insertRequest(tx: Queryable, r: NewRequest): Promise<RequestRow> {
  const [row] = await tx.query<RequestRow>(
    `INSERT INTO market.requests (owner_id, name, name_norm, course, course_norm, isbn) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${REQUEST_COLS}`,
    [r.owner, r.name, r.nameNorm, r.course, r.courseNorm, r.isbn],
  );
  return row!;
}

export async function requestsOf(db: Queryable, owner: string): Promise<RequestRow[]> {
  return db.query<RequestRow>(
    `SELECT ${REQUEST_COLS} FROM market.requests WHERE owner_id = $1 ORDER BY requested_at DESC, id DESC LIMIT 500`,
    [owner],
  );
}

/** Deletes one of the owner's requests; its matches go with it (ON DELETE CASCADE), others stay. */
export async function deleteRequest(db: Queryable, owner: string, id: string): Promise<boolean> {
  return (
    (await db.query('DELETE FROM market.requests WHERE id = $1 AND owner_id = $2 RETURNING id', [id, owner])).length ===
    1
  );
}

/** Deletes the owner's book if it is listed or unlisted (sold books keep their record). */
export async function deleteBook(
  tx: Queryable,
  owner: string,
  id: string,
): Promise<{ deleted: boolean; status?: number }> {
  const [b] = await tx.query<{ status: number; owner_id: string }>(
    'SELECT status, owner_id::text FROM market.books WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!b || b.owner_id !== owner) return { deleted: false };
  if (b.status !== 0 && b.status !== 5) return { deleted: false, status: b.status };
  await tx.query('DELETE FROM market.books WHERE id = $1', [id]);
  return { deleted: true, status: b.status };
}

/**
 * Moves a book from one status to another if it is still in `from` (compare-and-set); the listing
 * date restarts when a book is relisted so the unlisting job does not catch it again at once.
 */
export async function moveStatus(
  tx: Queryable,
  id: string,
  from: number,
  to: number,
  owner?: string,
): Promise<BookRow | undefined> {
  return (
    await tx.query<BookRow>(
      `UPDATE market.books b SET status = $3::smallint, status_changed_at = now(), posted_at = CASE WHEN $3::smallint = 0 THEN now() ELSE posted_at END
     WHERE b.id = $1 AND b.status = $2::smallint AND ($4::bigint IS NULL OR b.owner_id = $4) RETURNING ${BOOK_COLS}`,
      [id, from, to, owner ?? null],
    )
  )[0];
}
