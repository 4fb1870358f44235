-- Search by word prefixes without GIN partial matches (issue 21). A search term `csc:*` made GIN gather
-- every posting of every lexeme starting with "csc" before intersecting (125,000 at 1M books: ~20 ms).
-- `search_prefixes` holds every prefix (up to 24 characters) of every lexeme of
-- `search`, so a prefix term becomes an exact lexeme there: GIN intersects exact posting lists, and its
-- statistics give the planner the real number of matches. The term's own test against `search` stays
-- in the query (operator @@~, below), so a word longer than 24 characters keeps its whole meaning.

-- Every prefix of every lexeme, up to 24 characters. A generated column cannot read another one, so
-- the column below repeats `search`'s sources (the same lexemes; weights do not matter here).
CREATE FUNCTION market.search_prefixes(v tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN array_to_tsvector(ARRAY(
    SELECT DISTINCT left(l, n) FROM unnest(tsvector_to_array(v)) AS l, generate_series(1, least(length(l), 24)) AS n));

-- The exact-prefix form of a search query: every lexeme of q (a conjunction of prefix terms, as the
-- search builds it), cut to 24 characters, ANDed. It is implied by q, so it only narrows where to look.
-- Lexemes are read from q's text form, where ' and \ are doubled; they are written back the same way.
CREATE FUNCTION market.search_prefix_query(q tsquery) RETURNS tsquery
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (SELECT coalesce(string_agg(
            '''' || replace(replace(left(regexp_replace(m[1], '\\(.)|''('')', '\1\2', 'g'), 24), '\', '\\'), '''', '''''') || '''',
            ' & '), '')::tsquery
          FROM regexp_matches(q::text, '''((?:[^''\\]|''''|\\.)*)''', 'g') AS m);

-- `search @@~ q` is `search @@ q` (the same function) with a selectivity of ~1: the query tests both the
-- exact prefixes (which the planner estimates from search_prefixes' statistics) and q itself (which
-- only re-checks what the prefixes already chose, except for words over 24 characters); with `@@`
-- the planner would multiply the two estimates and think every search rare.
CREATE OPERATOR market.@@~ (LEFTARG = tsvector, RIGHTARG = tsquery, FUNCTION = ts_match_vq, RESTRICT = neqsel);

ALTER TABLE market.books ADD COLUMN search_prefixes tsvector GENERATED ALWAYS AS (market.search_prefixes(
  to_tsvector('simple', name) || to_tsvector('simple', course || ' ' || course_norm) || to_tsvector('simple', coalesce(isbn, ''))
)) STORED;

-- GIN over the exact prefixes of listed books (search only looks at listed books).
CREATE INDEX books_search_prefixes_idx ON market.books USING gin (search_prefixes) WHERE status = 0;
DROP INDEX market.books_search_idx;

-- The search walk: listed books newest first with what the walk tests and ranks by (owner, prefixes,
-- the vector), read from the index alone. The listing gets its own thin walk (keys and owner): a
-- listing page's cost is the index entries it passes, so it should not pass the search's vectors.
-- The listing's index carries `id > 0` (true of every book: ids start at 1), which the listing states
-- and the search does not: measured at 1M books, the planner costed a search walk through the thin
-- index plus a table read per book passed (25 ms) a little below the index-only search walk (11 ms).
CREATE INDEX books_search_walk_idx ON market.books (posted_at DESC, id DESC) INCLUDE (owner_id, search, search_prefixes) WHERE status = 0;
DROP INDEX market.books_listed_walk_idx;
CREATE INDEX books_listed_walk_idx ON market.books (posted_at DESC, id DESC) INCLUDE (owner_id) WHERE status = 0 AND id > 0;

-- The staff dashboard lists books of one status by status_changed_at. The (status, posted_at) index it
-- replaces had one user, the unlisting job's range of old listed books, which the walk indexes serve as
-- well; and the planner took it for search walks (a table read per book passed).
CREATE INDEX books_status_changed_idx ON market.books (status, status_changed_at DESC, id DESC);
DROP INDEX market.books_status_idx;
