import { describe, expect, it } from 'vitest';
import { testDb } from '../../support/env.ts';
import { client, expectError, json, makeUser, postBook } from './helpers.ts';

const api = client();
const ids = (body: any) => body.data.map((b: any) => b._id);

describe('cart', () => {
  it('adds, refuses duplicates, own and unavailable books, removes and clears', async () => {
    const seller = await makeUser();
    const buyer = await makeUser();
    const a = await postBook(seller, { name: 'Cart A' });
    const b = await postBook(seller, { name: 'Cart B' });
    const own = await postBook(buyer, { name: 'Cart own' });
    const gone = await postBook(seller, { name: 'Cart gone' });
    await testDb().query('UPDATE market.books SET status = 5 WHERE id = $1', [gone._id]);

    const added = await api.post('/api/user/addToCart', { data: { bookID: a._id } }, buyer.auth);
    expect(added.status).toBe(202);
    expect((await json(added)).data).toEqual({ added: a._id });
    expect((await api.post('/api/user/addToCart', { bookID: Number(b._id) }, buyer.auth)).status).toBe(202);
    expect(await expectError(await api.post('/api/user/addToCart', { bookID: a._id }, buyer.auth), 409)).toBe(
      'This book is already in your cart',
    );
    expect(await expectError(await api.post('/api/user/addToCart', { bookID: own._id }, buyer.auth), 409)).toBe(
      'You cannot buy your own book',
    );
    expect(await expectError(await api.post('/api/user/addToCart', { bookID: gone._id }, buyer.auth), 409)).toBe(
      'This book is no longer available',
    );
    await expectError(await api.post('/api/user/addToCart', { bookID: '999999999' }, buyer.auth), 404);
    await expectError(await api.post('/api/user/addToCart', { bookID: 'x' }, buyer.auth), 400);
    await expectError(await api.post('/api/user/addToCart', { bookID: a._id }), 401);

    expect(ids(await json(await api.get('/api/user/getCartItems', buyer.auth)))).toEqual([b._id, a._id]);
    expect((await api.post('/api/user/removeFromCart', { bookID: b._id }, buyer.auth)).status).toBe(200);
    await expectError(await api.post('/api/user/removeFromCart', { bookID: b._id }, buyer.auth), 404);
    expect(ids(await json(await api.get('/api/user/getCartItems', buyer.auth)))).toEqual([a._id]);
    expect((await json(await api.post('/api/user/clearCart', undefined, buyer.auth))).data).toEqual({ removed: 1 });
    expect((await json(await api.get('/api/user/getCartItems', buyer.auth))).data).toEqual([]);
  });
});

describe('checkout', () => {
  it('buys the whole cart: status 1, transaction with the 5 % fee, statistics, notifications, events', async () => {
    const s1 = await makeUser();
    const s2 = await makeUser();
    const buyer = await makeUser();
    const other = await makeUser();
    const a = await postBook(s1, { name: 'Checkout A', price: 10.5 });
    const b = await postBook(s2, { name: 'Checkout B', price: 20 });
    for (const x of [a, b])
      expect((await api.post('/api/user/addToCart', { bookID: x._id }, buyer.auth)).status).toBe(202);
    expect((await api.post('/api/user/addToCart', { bookID: a._id }, other.auth)).status).toBe(202);

    const res = await api.post('/api/user/checkout', {}, buyer.auth);
    expect(res.status).toBe(200);
    const t = (await json(res)).data.transaction;
    expect(t).toMatchObject({
      buyerID: buyer.id,
      subtotal: 30.5,
      totalCharged: 32.03,
      booksPurchased: [a._id, b._id].sort((x, y) => Number(x) - Number(y)),
      status: 0,
      buyerEmail: buyer.email,
    });

    const purchased = await json(await api.get('/api/user/getPurchasedBooks', buyer.auth));
    expect(purchased.data.map((x: any) => [x._id, x.status, x.buyer]).sort()).toEqual(
      [
        [a._id, 1, buyer.id],
        [b._id, 1, buyer.id],
      ].sort(),
    );
    expect((await json(await api.get('/api/user/getCartItems', buyer.auth))).data).toEqual([]);
    expect((await json(await api.get('/api/user/getCartItems', other.auth))).data).toEqual([]);
    expect((await json(await api.get('/api/user/getUserStatistics', buyer.auth))).data).toEqual({
      numberOfBooksBought: 2,
      numberOfBooksSold: 0,
      moneyMade: 0,
    });
    expect((await json(await api.get('/api/user/getUserStatistics', s1.auth))).data).toEqual({
      numberOfBooksBought: 0,
      numberOfBooksSold: 1,
      moneyMade: 10.5,
    });
    expect(ids(await json(await api.get('/api/user/getSoldBooks', s2.auth)))).toEqual([b._id]);
    expect((await json(await api.get('/api/user/getNotifications', buyer.auth))).data[0].message).toBe(
      'Thanks for your purchase! You will be charged $32.03 once the books are checked.',
    );
    expect((await json(await api.get('/api/user/getNotifications', s1.auth))).data[0].message).toBe(
      'Someone bought your book: "Checkout A".',
    );
    const ev = await testDb().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhooks.outbox WHERE event_name = 'cart_checked_out' AND object_id = $1",
      [t._id],
    );
    expect(ev[0]!.n).toBe(1);

    expect(await expectError(await api.post('/api/user/checkout', {}, buyer.auth), 400)).toBe('Your cart is empty');
    await expectError(await api.post('/api/user/checkout', {}), 401);
  });

  it('buys nothing when one book was taken, and lists it (409); the alias checkoutCart works', async () => {
    const seller = await makeUser();
    const first = await makeUser();
    const second = await makeUser();
    const shared = await postBook(seller, { name: 'Contested' });
    const mine = await postBook(seller, { name: 'Uncontested' });
    await api.post('/api/user/addToCart', { bookID: shared._id }, first.auth);
    await api.post('/api/user/addToCart', { bookID: shared._id }, second.auth);
    await api.post('/api/user/addToCart', { bookID: mine._id }, second.auth);
    expect((await api.post('/api/books/checkoutCart', { data: { cart: [] } }, first.auth)).status).toBe(200);
    const res = await api.post('/api/user/checkout', {}, second.auth);
    expect(res.status).toBe(409);
    const body = await json(res);
    expect(body.data).toEqual({
      error: 'Some books in your cart are no longer available; nothing was bought',
      unavailable: [shared._id],
    });
    const [row] = await testDb().query<{ status: number }>('SELECT status FROM market.books WHERE id = $1', [mine._id]);
    expect(row!.status).toBe(0);
    // the taken book left the cart, so the next checkout buys the rest
    expect(ids(await json(await api.get('/api/user/getCartItems', second.auth)))).toEqual([mine._id]);
    expect((await api.post('/api/user/checkout', {}, second.auth)).status).toBe(200);
  });

  it('50 concurrent checkouts sharing one book: exactly one succeeds, one buyer, statistics add up', async () => {
    const seller = await makeUser();
    const shared = await postBook(seller, { name: 'Race book', price: 40 });
    const n = 50;
    const buyers = await Promise.all(Array.from({ length: n }, () => makeUser()));
    const extras: string[] = [];
    for (const [i, u] of buyers.entries()) {
      const extra = await postBook(seller, { name: `Race extra ${i}`, price: 10 });
      extras.push(extra._id);
      expect((await api.post('/api/user/addToCart', { bookID: extra._id }, u.auth)).status).toBe(202);
      expect((await api.post('/api/user/addToCart', { bookID: shared._id }, u.auth)).status).toBe(202);
    }
    // All 50 at once. Meaningful on a real PostgreSQL (CI runs this file with TEST_DATABASE_URL);
    // the embedded PGlite serialises the transactions, so there it checks the bookkeeping only.
    const results = await Promise.all(buyers.map((u) => api.post('/api/user/checkout', {}, u.auth)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(n - 1);
    const winner = buyers[statuses.indexOf(200)]!;
    for (const r of results.filter((x) => x.status === 409))
      expect((await json(r)).data.unavailable).toEqual([shared._id]);

    const db = testDb();
    const [book] = await db.query<{ status: number; buyer_id: string }>(
      'SELECT status, buyer_id::text FROM market.books WHERE id = $1',
      [shared._id],
    );
    expect(book).toEqual({ status: 1, buyer_id: winner.id });
    const sold = await db.query<{ id: string }>(
      'SELECT id::text FROM market.books WHERE owner_id = $1 AND status = 1 ORDER BY id',
      [seller.id],
    );
    expect(sold.map((r) => r.id).sort((x, y) => Number(x) - Number(y))).toEqual(
      [shared._id, extras[buyers.indexOf(winner)]!].sort((x, y) => Number(x) - Number(y)),
    );
    const [stats] = await db.query<{ bought: number; sold: number; money: string; txs: number }>(
      `SELECT (SELECT sum(books_bought)::int FROM market.users WHERE id = ANY($1::bigint[])) AS bought,
              (SELECT books_sold FROM market.users WHERE id = $2) AS sold,
              (SELECT money_made::text FROM market.users WHERE id = $2) AS money,
              (SELECT count(*)::int FROM market.transactions WHERE buyer_id = ANY($1::bigint[])) AS txs`,
      [buyers.map((b) => b.id), seller.id],
    );
    expect(stats).toEqual({ bought: 2, sold: 2, money: '50.00', txs: 1 });
  }, 120_000);
});
