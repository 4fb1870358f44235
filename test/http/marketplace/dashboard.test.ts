import { describe, expect, it } from 'vitest';
import marketplace from '../../../functions/marketplace.ts';
import { testDb, testEnv } from '../../support/env.ts';
import { client, expectError, json, makeUser, postBook, type TestUser } from './helpers.ts';

const api = client();

async function sold(seller: TestUser, buyer: TestUser, name = 'Dash book') {
  const book = await postBook(seller, { name });
  expect((await api.post('/api/user/addToCart', { bookID: book._id }, buyer.auth)).status).toBe(202);
  const res = await api.post('/api/user/checkout', {}, buyer.auth);
  expect(res.status).toBe(200);
  return { book, tx: (await json(res)).data.transaction };
}

describe('dashboard access', () => {
  it.each([
    ['GET', '/api/dashboard/getStatistics'],
    ['GET', '/api/dashboard/getUsers'],
    ['GET', '/api/dashboard/getPendingTransactions'],
    ['POST', '/api/dashboard/confirmBook'],
  ])('%s %s: 401 without a token, 403 for a user', async (method, path) => {
    const u = await makeUser();
    await expectError(await api.request(method, path, method === 'POST' ? { id: '1' } : undefined), 401);
    await expectError(
      await api.request(method, path, method === 'POST' ? { id: '1' } : undefined, u.auth),
      403,
      `${method} ${path}`,
    );
  });

  it('permissionLv answers any user; an admin demoted by the owner loses rights at once', async () => {
    const owner = await makeUser({ permission: 2 });
    const user = await makeUser();
    expect((await json(await api.get('/api/dashboard/permissionLv', user.auth))).data).toEqual({ permissionType: 0 });
    expect((await api.put('/api/dashboard/makeAdmin', { data: { userID: user.id } }, owner.auth)).status).toBe(200);
    expect((await api.get('/api/dashboard/isAdmin', user.auth)).status).toBe(200);
    await expectError(await api.put('/api/dashboard/makeAdmin', { userID: user.id }, owner.auth), 409);
    await expectError(await api.put('/api/dashboard/makeAdmin', { userID: owner.id }, user.auth), 403);
    expect((await api.post('/api/dashboard/removeAdmin', { userID: user.id }, owner.auth)).status).toBe(200);
    await expectError(await api.get('/api/dashboard/isAdmin', user.auth), 403);
    await expectError(await api.post('/api/dashboard/removeAdmin', { userID: user.id }, owner.auth), 409);
    await expectError(await api.put('/api/dashboard/makeAdmin', { userID: owner.id }, owner.auth), 409);
    await expectError(await api.put('/api/dashboard/makeAdmin', { userID: '99999999' }, owner.auth), 404);
    await expectError(await api.put('/api/dashboard/makeAdmin', { userID: 'x' }, owner.auth), 400);
  });
});

describe('dashboard data and status moves', () => {
  it('statistics add up with the database', async () => {
    const admin = await makeUser({ permission: 1 });
    const s = (await json(await api.get('/api/dashboard/getStatistics', admin.auth))).data;
    const [db] =
      await testDb().query<any>(`SELECT (SELECT count(*)::int FROM market.users) AS u, (SELECT count(*)::int FROM market.books) AS b,
      (SELECT count(*)::int FROM market.books WHERE status = 0) AS b0`);
    expect([s.totalUsers, s.totalBooks, s.booksByStatus['0']]).toEqual([db.u, db.b, db.b0]);
  });

  it('finds users by address or name and by exact address, never with secrets', async () => {
    const admin = await makeUser({ permission: 1 });
    const u = await makeUser({ first: 'Zebediah', last: 'Quux' });
    const found = (await json(await api.get('/api/dashboard/getUsers?q=zebediah', admin.auth))).data;
    expect(found.map((x: any) => x._id)).toContain(u.id);
    expect(JSON.stringify(found)).not.toMatch(/pbkdf2|password/i);
    expect(
      (await json(await api.get(`/api/dashboard/getSpecificUser?email=${encodeURIComponent(u.email)}`, admin.auth)))
        .data._id,
    ).toBe(u.id);
    await expectError(await api.get('/api/dashboard/getSpecificUser?email=none@x.edu', admin.auth), 404);
    await expectError(await api.get('/api/dashboard/getSpecificUser', admin.auth), 400);
    await expectError(await api.get('/api/dashboard/getUsers?limit=1000', admin.auth), 400);
  });

  it('moves 1 -> 2 -> 3 only in order, confirms the transaction once', async () => {
    const admin = await makeUser({ permission: 1 });
    const seller = await makeUser();
    const buyer = await makeUser({ first: 'Tx', last: 'Buyer' });
    const { book, tx } = await sold(seller, buyer);
    await expectError(await api.post('/api/dashboard/setBookPaid', { id: book._id }, admin.auth), 409);
    const confirmed = await api.post('/api/dashboard/confirmBook', { data: { id: book._id } }, admin.auth);
    expect(confirmed.status).toBe(200);
    expect((await json(confirmed)).data.book.status).toBe(2);
    expect((await json(await api.get('/api/user/getNotifications', buyer.auth))).data[0].message).toBe(
      `We checked the condition of "${book.name}" and charged your payment.`,
    );
    await expectError(await api.post('/api/dashboard/confirmBook', { id: book._id }, admin.auth), 409);
    expect(
      (await json(await api.get('/api/dashboard/getPurchasedBooks', admin.auth))).data.map((b: any) => b._id),
    ).toContain(book._id);
    expect(
      (await json(await api.post('/api/dashboard/setBookPaid', { id: book._id }, admin.auth))).data.book.status,
    ).toBe(3);
    const withStatus = (await json(await api.get('/api/dashboard/getBooksWithStatus/3', admin.auth))).data;
    expect(withStatus.map((b: any) => b._id)).toContain(book._id);
    await expectError(await api.get('/api/dashboard/getBooksWithStatus/4', admin.auth), 400);
    await expectError(await api.post('/api/dashboard/setBookStatus', { bookID: book._id, status: 0 }, admin.auth), 409);
    await expectError(await api.post('/api/dashboard/setBookStatus', { bookID: book._id, status: 7 }, admin.auth), 400);
    await expectError(await api.post('/api/dashboard/confirmBook', { id: '99999999' }, admin.auth), 404);

    const pending = (await json(await api.get('/api/dashboard/getPendingTransactions?limit=100', admin.auth))).data;
    expect(pending.map((t: any) => t._id)).toContain(tx._id);
    expect(
      (await json(await api.get('/api/dashboard/getTransactionsByName/tx/BUYER', admin.auth))).data.map(
        (t: any) => t._id,
      ),
    ).toContain(tx._id);
    expect(
      (await json(await api.post('/api/dashboard/confirmTransaction', { id: tx._id }, admin.auth))).data.transaction
        .status,
    ).toBe(1);
    await expectError(await api.post('/api/dashboard/confirmTransaction', { id: tx._id }, admin.auth), 409);
    await expectError(await api.post('/api/dashboard/confirmTransaction', { id: '99999999' }, admin.auth), 404);
    expect(
      (await json(await api.get('/api/dashboard/getCompletedTransactions?limit=100', admin.auth))).data.map(
        (t: any) => t._id,
      ),
    ).toContain(tx._id);
    const events = await testDb().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhooks.outbox WHERE event_name = 'book_status_changed' AND object_id = $1",
      [book._id],
    );
    expect(events[0]!.n).toBe(3);
  });
});

describe('extendBookInfo', () => {
  it('answers the stored books in the order asked, with ownerObject and buyerObject (admin only)', async () => {
    const admin = await makeUser({ permission: 1 });
    const seller = await makeUser({ first: 'Ext', last: 'Seller' });
    const buyer = await makeUser({ first: 'Ext', last: 'Buyer' });
    const { book: soldBook } = await sold(seller, buyer, 'Extended sold');
    const listed = await postBook(seller, { name: 'Extended listed' });
    const userView = async (u: TestUser) =>
      (await json(await api.get(`/api/dashboard/getSpecificUser?email=${encodeURIComponent(u.email)}`, admin.auth)))
        .data;
    const [sellerView, buyerView] = [await userView(seller), await userView(buyer)];

    // Whole book objects (as the original's client sends them; posted fields are not trusted), bare ids, an unknown id.
    const res = await api.post(
      '/api/dashboard/extendBookInfo',
      { books: [{ ...listed, name: 'forged', owner: buyer.id }, Number(soldBook._id), '99999999', listed._id] },
      admin.auth,
    );
    expect(res.status).toBe(200);
    const data = (await json(res)).data;
    expect(data).toEqual([
      { ...listed, ownerObject: sellerView, buyerObject: null },
      { ...soldBook, status: 1, buyer: buyer.id, ownerObject: sellerView, buyerObject: buyerView },
      { ...listed, ownerObject: sellerView, buyerObject: null },
    ]);
    expect(JSON.stringify(data)).not.toMatch(/pbkdf2|password/i);
  });

  it.each([
    ['no books', {}, 400],
    ['empty list', { books: [] }, 400],
    ['not an id', { books: ['abc'] }, 400],
    ['object without _id', { books: [{ name: 'x' }] }, 400],
    ['more than 200', { books: Array.from({ length: 201 }, (_, i) => String(i + 1)) }, 400],
  ])('%s -> %i', async (_n, payload, status) => {
    const admin = await makeUser({ permission: 1 });
    await expectError(await api.post('/api/dashboard/extendBookInfo', payload, admin.auth), status);
  });

  it('401 without a token, 403 for a user', async () => {
    const u = await makeUser();
    await expectError(await api.post('/api/dashboard/extendBookInfo', { books: ['1'] }), 401);
    await expectError(await api.post('/api/dashboard/extendBookInfo', { books: ['1'] }, u.auth), 403);
  });
});

describe('unlisting old books', () => {
  async function oldBooks(owner: TestUser, days: number, count: number) {
    const out = [];
    for (let i = 0; i < count; i++) {
      const b = await postBook(owner, { name: `Old book ${i}` });
      await testDb().query(`UPDATE market.books SET posted_at = now() - make_interval(days => $2) WHERE id = $1`, [
        b._id,
        days,
      ]);
      out.push(b._id);
    }
    return out;
  }
  const statusOf = async (ids: string[]) =>
    (
      await testDb().query<{ status: number }>(
        'SELECT status FROM market.books WHERE id = ANY($1::bigint[]) ORDER BY id',
        [ids],
      )
    ).map((r) => r.status);

  it('owner only; unlists books older than the limit, once; fresh books stay', async () => {
    const owner = await makeUser({ permission: 2 });
    const admin = await makeUser({ permission: 1 });
    const seller = await makeUser();
    const old = await oldBooks(seller, 400, 2);
    const fresh = await oldBooks(seller, 300, 1);
    await expectError(await api.post('/api/dashboard/deactivateBooks', { days: 365 }, admin.auth), 403);
    await expectError(await api.post('/api/dashboard/deactivateBooks', { days: 0 }, owner.auth), 400);
    const r = await json(await api.post('/api/dashboard/deactivateBooks', { days: 365 }, owner.auth));
    expect(r.data.unlisted).toBeGreaterThanOrEqual(2);
    expect(await statusOf(old)).toEqual([5, 5]);
    expect(await statusOf(fresh)).toEqual([0]);
    expect(
      (await json(await api.post('/api/dashboard/deactivateBooks', { days: 365 }, owner.auth))).data.unlisted,
    ).toBe(0);
    expect((await json(await api.get('/api/user/getNotifications', seller.auth))).data[0].message).toBe(
      '2 of your books were unlisted after 365 days; relist or delete them.',
    );
    const ev = await testDb().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhooks.outbox WHERE event_name = 'book_unlisted' AND object_id = ANY($1::text[])",
      [old],
    );
    expect(ev[0]!.n).toBe(2);
  });

  it("runs from the worker's scheduled handler (62 days by default), idempotently, and deletes ended rate-limit windows", async () => {
    const seller = await makeUser();
    const old = await oldBooks(seller, 63, 1);
    const young = await oldBooks(seller, 61, 1);
    const run = async () => {
      const pending: Promise<unknown>[] = [];
      await marketplace.scheduled({ cron: '17 3 * * *', scheduledTime: Date.now() }, testEnv(), {
        waitUntil: (p) => void pending.push(p),
      });
      await Promise.all(pending);
    };
    const windows = ['signup:address:ended@test.edu', 'signup:address:current@test.edu'];
    await testDb().query(
      `INSERT INTO market.rate_limits (key, window_start, hits) VALUES ($1, now() - interval '2 hours', 3),
        ($2, now() - interval '10 minutes', 2) ON CONFLICT (key) DO UPDATE SET window_start = EXCLUDED.window_start`,
      windows,
    );
    await run();
    expect(await statusOf(old)).toEqual([5]);
    expect(await statusOf(young)).toEqual([0]);
    const left = await testDb().query<{ key: string }>('SELECT key FROM market.rate_limits WHERE key = ANY($1)', [
      windows,
    ]);
    expect(left.map((r) => r.key)).toEqual([windows[1]]); // the ended window is deleted, the current one kept
    await run();
    const notes = (await json(await api.get('/api/user/getNotifications', seller.auth))).data.filter((n: any) =>
      n.message.includes('unlisted'),
    );
    expect(notes).toHaveLength(1);
  });
});
