/**
 * Demo data for the marketplace (`npm start` calls `seed`): an owner, an admin and two users with
 * known passwords (printed), a few listed books and one request, so every role can be tried at once.
 * Idempotent: users are inserted ON CONFLICT DO NOTHING and books only while the demo users have none.
 */
import pg from 'pg';
import { hashPassword } from '../../src/platform/crypto.ts';
import { normalizeCourse, normalizeIsbn, normalizeName } from '../../src/marketplace/matching.ts';

export const DEMO_USERS = [
  { email: 'owner@demo.edu', password: 'owner-demo-1', first: 'Olivia', last: 'Owner', permission: 2 },
  { email: 'admin@demo.edu', password: 'admin-demo-1', first: 'Adam', last: 'Admin', permission: 1 },
  { email: 'alice@demo.edu', password: 'alice-demo-1', first: 'Alice', last: 'Seller', permission: 0 },
  { email: 'bob@demo.edu', password: 'bob-demo-1', first: 'Bob', last: 'Buyer', permission: 0 },
] as const;

const BOOKS = [
  {
    owner: 'alice@demo.edu',
    name: 'Introduction to Algorithms',
    edition: 3,
    course: 'CSC 282',
    price: 55,
    condition: 'Good',
    isbn: '0262033844',
  },
  {
    owner: 'alice@demo.edu',
    name: 'Calculus: Early Transcendentals',
    edition: 8,
    course: 'MTH 161',
    price: 80,
    condition: 'Like new',
    isbn: '9781285741550',
  },
  {
    owner: 'alice@demo.edu',
    name: 'Organic Chemistry',
    edition: 9,
    course: 'CHM 203',
    price: 60,
    condition: 'Fair',
    isbn: null,
  },
  {
    owner: 'bob@demo.edu',
    name: 'The C Programming Language',
    edition: 2,
    course: 'CSC 173',
    price: 25,
    condition: 'Good',
    isbn: '0131103628',
  },
  {
    owner: 'admin@demo.edu',
    name: 'Principles of Economics',
    edition: 7,
    course: 'ECO 108',
    price: 45,
    condition: 'Worn',
    isbn: null,
  },
];

export async function seed(ctx: { databaseUrl: string; env: Record<string, string> }): Promise<string[]> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const ids = new Map<string, string>();
    for (const u of DEMO_USERS) {
      const existing = await client.query<{ id: string }>('SELECT id::text FROM market.users WHERE lower(email) = $1', [
        u.email,
      ]);
      if (existing.rows[0]) {
        ids.set(u.email, existing.rows[0].id);
        continue;
      }
      const r = await client.query<{ id: string }>(
        `INSERT INTO market.users (email, password_hash, first_name, last_name, university, cmc, venmo_username, permission_type)
         VALUES ($1, $2, $3, $4, 'Demo University', $5, $6, $7) RETURNING id::text`,
        [
          u.email,
          await hashPassword(u.password),
          u.first,
          u.last,
          `CMC ${ids.size + 100}`,
          `${u.first.toLowerCase()}-demo`,
          u.permission,
        ],
      );
      ids.set(u.email, r.rows[0]!.id);
      await client.query('INSERT INTO market.notifications (user_id, message) VALUES ($1, $2)', [
        r.rows[0]!.id,
        'Thanks for signing up for BarterOut!',
      ]);
    }
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM market.books WHERE owner_id = ANY($1::bigint[])',
      [[...ids.values()]],
    );
    if (rows[0]!.n === 0) {
      for (const b of BOOKS) {
        await client.query(
          `INSERT INTO market.books (owner_id, name, name_norm, edition, course, course_norm, price, condition, comments, isbn)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'demo book', $9)`,
          [
            ids.get(b.owner),
            b.name,
            normalizeName(b.name),
            b.edition,
            b.course,
            normalizeCourse(b.course),
            b.price,
            b.condition,
            b.isbn ? normalizeIsbn(b.isbn) : null,
          ],
        );
      }
      await client.query(
        `INSERT INTO market.requests (owner_id, name, name_norm, course, course_norm) VALUES ($1, 'Calculus', 'calculus', 'MTH 161', 'MTH161')`,
        [ids.get('bob@demo.edu')],
      );
      await client.query(
        `INSERT INTO market.matches (request_id, book_id) SELECT r.id, b.id FROM market.requests r JOIN market.books b ON b.course_norm = r.course_norm
         WHERE r.owner_id = $1 AND b.owner_id <> r.owner_id ON CONFLICT DO NOTHING`,
        [ids.get('bob@demo.edu')],
      );
    }
    const url = (ctx.env.MARKETPLACE_URL ?? 'http://127.0.0.1:8788').replace(/\/+$/, '');
    return [
      'marketplace demo accounts (password after the address):',
      ...DEMO_USERS.map((u) => `  ${['user ', 'admin', 'owner'][u.permission]}  ${u.email}  ${u.password}`),
      `  log in:  curl -s -X POST ${url}/api/auth/login -H 'content-type: application/json' -d '{"emailAddress":"bob@demo.edu","password":"bob-demo-1"}'`,
      `  books:   curl -s ${url}/api/books/getBooksNoToken/10/0`,
      `  search:  curl -s ${url}/api/books/search/public/calculus`,
    ];
  } finally {
    await client.end();
  }
}
