/**
 * /api/user (the original's account prefix): requests, cart, purchases, sales, profile data,
 * statistics and notifications. Carts never hold duplicates, the user's own books or books that
 * are not listed (409); getSoldBooks lists only books actually sold (status 1-3, not unlisted ones).
 */
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { me, requireUser } from './auth.ts';
import { ok } from './views.ts';
import * as books from './queries-books.ts';
import * as cart from './queries-cart.ts';
import * as users from './queries-users.ts';
import * as act from './actions-books.ts';
import { checkoutCart } from './actions-checkout.ts';
import { bookIdSchema, body } from './schemas.ts';

export const userRoutes = new Hono<AppEnv>();

/** `POST /api/user/checkout` and its alias `/api/books/checkoutCart`. */
export async function checkoutHandler(c: Context<AppEnv>): Promise<Response> {
  return ok(c, { transaction: await checkoutCart(c, me(c).id) });
}
userRoutes.use('*', requireUser);

userRoutes.get('/getRequests', async (c) =>
  ok(c, (await books.requestsOf(c.get('db'), me(c).id)).map(books.publicRequest)),
);
userRoutes.get('/getCartItems', async (c) =>
  ok(c, (await cart.cartBooks(c.get('db'), me(c).id)).map(books.publicBook)),
);
userRoutes.get('/getPurchasedBooks', async (c) =>
  ok(c, (await books.booksBoughtBy(c.get('db'), me(c).id)).map(books.publicBook)),
);
userRoutes.get('/getSoldBooks', async (c) =>
  ok(c, (await books.booksOfOwner(c.get('db'), me(c).id, [1, 2, 3])).map(books.publicBook)),
);
userRoutes.get('/getNotifications', async (c) => ok(c, await users.notificationsOf(c.get('db'), me(c).id)));

userRoutes.get('/getUserData', async (c) => {
  const db = c.get('db');
  const u = await users.userById(db, me(c).id);
  if (!u) throw new HttpError(401, 'invalid token');
  return ok(c, { user: { ...users.publicUser(u), matchedBooks: await users.matchedBookIds(db, u.id) } });
});

userRoutes.get('/getUserStatistics', async (c) => {
  const u = await users.userById(c.get('db'), me(c).id);
  if (!u) throw new HttpError(401, 'invalid token');
  return ok(c, users.statisticsOf(u));
});

userRoutes.post('/deleteRequest', body(bookIdSchema), async (c) => {
  const { bookID } = c.req.valid('json');
  await act.deleteRequest(c, me(c).id, bookID);
  return ok(c, { deleted: bookID });
});

userRoutes.post('/addToCart', body(bookIdSchema), async (c) => {
  const { bookID } = c.req.valid('json');
  await act.addToCart(c, me(c).id, bookID);
  return ok(c, { added: bookID }, 202);
});

userRoutes.post('/removeFromCart', body(bookIdSchema), async (c) => {
  const { bookID } = c.req.valid('json');
  await act.removeFromCart(c, me(c).id, bookID);
  return ok(c, { removed: bookID });
});

userRoutes.post('/clearCart', async (c) => ok(c, { removed: await cart.clearCart(c.get('db'), me(c).id) }));
userRoutes.post('/checkout', checkoutHandler);
