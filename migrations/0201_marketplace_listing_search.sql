-- Listing and search walk listed books newest first (issue 21). This index holds, in listing order,
-- what that walk tests: the search vector and the owner (the signed-in pages leave the viewer's own
-- books out), so the walk reads the index alone (an index-only scan where the visibility map allows)
-- and a search for a rare phrase that walks many books before it has its candidates stays cheap.
-- It replaces books_listed_idx (same keys, same predicate).
CREATE INDEX books_listed_walk_idx ON market.books (posted_at DESC, id DESC) INCLUDE (owner_id, search) WHERE status = 0;
DROP INDEX market.books_listed_idx;
