-- Marketplace (schema `market`): users, pending sign-ups, books for sale, requested books, matches,
-- carts, transactions and notifications. Follows BarterOut's Mongo models (see docs/marketplace.md),
-- normalised: matches and carts are rows, not id arrays, so they cannot hold duplicates.
CREATE SCHEMA IF NOT EXISTS market;

CREATE TABLE market.users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  university text NOT NULL,
  cmc text NOT NULL,
  venmo_username text NOT NULL,
  permission_type smallint NOT NULL DEFAULT 0 CHECK (permission_type IN (0, 1, 2)),
  books_sold integer NOT NULL DEFAULT 0,
  books_bought integer NOT NULL DEFAULT 0,
  money_made numeric(12, 2) NOT NULL DEFAULT 0,
  -- bumped on password change/reset: tokens carrying an older version are refused
  token_version integer NOT NULL DEFAULT 0,
  reset_token_hash text,
  reset_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON market.users (lower(email));
CREATE UNIQUE INDEX users_reset_token_key ON market.users (reset_token_hash) WHERE reset_token_hash IS NOT NULL;

-- A sign-up waiting for its confirmation link (the original's TempUser, 24 h TTL). Only the
-- SHA-256 of the token is stored.
CREATE TABLE market.pending_signups (
  token_hash text PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  university text NOT NULL,
  cmc text NOT NULL,
  venmo_username text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX pending_signups_email_key ON market.pending_signups (lower(email));

CREATE TABLE market.books (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner_id bigint NOT NULL REFERENCES market.users (id) ON DELETE CASCADE,
  name text NOT NULL,
  name_norm text NOT NULL,
  edition integer NOT NULL,
  course text NOT NULL,
  course_norm text NOT NULL,
  price numeric(10, 2) NOT NULL,
  condition text NOT NULL,
  comments text,
  isbn text,
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3, 5)),
  buyer_id bigint REFERENCES market.users (id),
  posted_at timestamptz NOT NULL DEFAULT now(),
  status_changed_at timestamptz NOT NULL DEFAULT now(),
  search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', name), 'A')
    || setweight(to_tsvector('simple', course || ' ' || course_norm), 'B')
    || setweight(to_tsvector('simple', coalesce(isbn, '')), 'A')
  ) STORED
);
CREATE INDEX books_search_idx ON market.books USING gin (search);
CREATE INDEX books_listed_idx ON market.books (posted_at DESC, id DESC) WHERE status = 0;
CREATE INDEX books_owner_idx ON market.books (owner_id, status);
CREATE INDEX books_buyer_idx ON market.books (buyer_id) WHERE buyer_id IS NOT NULL;
CREATE INDEX books_status_idx ON market.books (status, posted_at);
CREATE INDEX books_course_idx ON market.books (course_norm) WHERE status = 0;
CREATE INDEX books_isbn_idx ON market.books (isbn) WHERE status = 0 AND isbn IS NOT NULL;

-- Requested books (the original's TextbookBuy / booksWanted); status 0 open, 1 fulfilled at checkout.
CREATE TABLE market.requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner_id bigint NOT NULL REFERENCES market.users (id) ON DELETE CASCADE,
  name text NOT NULL,
  name_norm text NOT NULL,
  course text NOT NULL,
  course_norm text NOT NULL,
  isbn text,
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),
  requested_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX requests_owner_idx ON market.requests (owner_id);
CREATE INDEX requests_open_course_idx ON market.requests (course_norm) WHERE status = 0;

-- Which open request matched which book (replaces user.matchedBooks); deleting a request removes
-- only its own matches.
CREATE TABLE market.matches (
  request_id bigint NOT NULL REFERENCES market.requests (id) ON DELETE CASCADE,
  book_id bigint NOT NULL REFERENCES market.books (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (request_id, book_id)
);
CREATE INDEX matches_book_idx ON market.matches (book_id);

CREATE TABLE market.cart_items (
  user_id bigint NOT NULL REFERENCES market.users (id) ON DELETE CASCADE,
  book_id bigint NOT NULL REFERENCES market.books (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (user_id, book_id)
);
CREATE INDEX cart_items_book_idx ON market.cart_items (book_id);

-- One checkout. status 0 pending, 1 completed (confirmTransaction). total_charged = sum * 1.05.
CREATE TABLE market.transactions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  buyer_id bigint NOT NULL REFERENCES market.users (id),
  buyer_first_name text NOT NULL,
  buyer_last_name text NOT NULL,
  buyer_venmo text NOT NULL,
  buyer_email text NOT NULL,
  subtotal numeric(12, 2) NOT NULL,
  total_charged numeric(12, 2) NOT NULL,
  books_purchased bigint[] NOT NULL,
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transactions_status_idx ON market.transactions (status, created_at DESC);
CREATE INDEX transactions_buyer_idx ON market.transactions (buyer_id);

CREATE TABLE market.notifications (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES market.users (id) ON DELETE CASCADE,
  message text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX notifications_user_idx ON market.notifications (user_id, id DESC);
