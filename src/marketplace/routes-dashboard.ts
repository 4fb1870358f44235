/**
 * /api/dashboard: admin (permissionType >= 1) and owner (2) tools. Status moves go through
 * book-status.ts (409 for anything not legal from the book's current status); confirmBook charges
 * the buyer (1 -> 2), setBookPaid pays the seller (2 -> 3). Owner only: make/remove admins and
 * "unlist old books" (unlisting.ts, also the cron job).
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { validate } from '../platform/validate.ts';
import * as act from './actions-staff.ts';
import { me, requireRole, requireUser } from './auth.ts';
import { STATUS, VALID_STATUSES } from './book-status.ts';
import { ok } from './views.ts';
import * as books from './queries-books.ts';
import { publicTransaction } from './queries-cart.ts';
import * as dash from './queries-dashboard.ts';
import { publicUser, userByEmail } from './queries-users.ts';
import { id, idSchema, pageSchema, setStatusSchema, unlistSchema, userIdSchema, body } from './schemas.ts';

export const dashboardRoutes = new Hono<AppEnv>();
dashboardRoutes.use('*', requireUser);

// Before the admin gate: any user may ask for their own level (the client decides what to show).
dashboardRoutes.get('/permissionLv', (c) => ok(c, { permissionType: me(c).permissionType }));
dashboardRoutes.use('*', requireRole(1));

dashboardRoutes.get('/isAdmin', (c) => ok(c, { isAdmin: true, permissionType: me(c).permissionType }));
dashboardRoutes.get('/getStatistics', async (c) => ok(c, await dash.statistics(c.get('db'))));

const userQuery = pageSchema.extend({ q: z.string().trim().min(1).max(100).optional() });
dashboardRoutes.get('/getUsers', validate('query', userQuery), async (c) => {
  const { q, limit, skip } = c.req.valid('query');
  return ok(c, await dash.users(c.get('db'), q, limit, skip));
});

dashboardRoutes.get(
  '/getSpecificUser',
  validate('query', z.object({ email: z.string().trim().min(3).max(254) })),
  async (c) => {
    const u = await userByEmail(c.get('db'), c.req.valid('query').email);
    if (!u) throw new HttpError(404, 'User not found');
    return ok(c, publicUser(u));
  },
);

const nameParams = z.object({ firstName: z.string().min(1).max(50), lastName: z.string().min(1).max(50) });
dashboardRoutes.get('/getTransactionsByName/:firstName/:lastName', validate('param', nameParams), async (c) => {
  const { firstName, lastName } = c.req.valid('param');
  return ok(c, (await dash.transactionsByName(c.get('db'), firstName, lastName)).map(publicTransaction));
});

const statusParam = z.object({
  status: z.coerce
    .number()
    .int()
    .refine((s) => VALID_STATUSES.includes(s), 'Invalid status'),
});
dashboardRoutes.get(
  '/getBooksWithStatus/:status',
  validate('param', statusParam),
  validate('query', pageSchema),
  async (c) => {
    const { limit, skip } = c.req.valid('query');
    return ok(
      c,
      (await dash.booksWithStatus(c.get('db'), c.req.valid('param').status, limit, skip)).map(books.publicBook),
    );
  },
);
dashboardRoutes.get('/getPurchasedBooks', validate('query', pageSchema), async (c) => {
  const { limit, skip } = c.req.valid('query');
  return ok(c, (await dash.booksWithStatus(c.get('db'), STATUS.VERIFIED, limit, skip)).map(books.publicBook));
});

for (const [path, status] of [
  ['/getAllTransactions', undefined],
  ['/getPendingTransactions', 0],
  ['/getCompletedTransactions', 1],
] as const) {
  dashboardRoutes.get(path, validate('query', pageSchema), async (c) => {
    const { limit, skip } = c.req.valid('query');
    return ok(c, (await dash.transactions(c.get('db'), status, limit, skip)).map(publicTransaction));
  });
}

// The original's client posts the books it already shows; here only their ids are read and the
// stored books are answered (never the posted fields), each with ownerObject/buyerObject.
const extendSchema = z.object({
  books: z
    .array(
      z.union([
        id,
        z
          .object({ _id: id })
          .passthrough()
          .transform((b) => b._id),
      ]),
    )
    .min(1)
    .max(200),
});
dashboardRoutes.post('/extendBookInfo', body(extendSchema), async (c) =>
  ok(c, await dash.extendBooks(c.get('db'), c.req.valid('json').books)),
);

async function staffMoveResponse(c: Context<AppEnv>, bookId: string, to: number): Promise<Response> {
  return ok(c, { book: books.publicBook(await act.staffMove(c, bookId, to)) });
}

async function permissionResponse(c: Context<AppEnv>, userId: string, change: act.PermissionChange) {
  return ok(c, { userID: userId, permissionType: await act.changePermission(c, me(c).id, userId, change) });
}

dashboardRoutes.post('/confirmBook', body(idSchema), (c) =>
  staffMoveResponse(c, c.req.valid('json').id, STATUS.VERIFIED),
);
dashboardRoutes.post('/setBookPaid', body(idSchema), (c) => staffMoveResponse(c, c.req.valid('json').id, STATUS.PAID));
dashboardRoutes.post('/setBookStatus', body(setStatusSchema), (c) => {
  const { bookID, status } = c.req.valid('json');
  if (!VALID_STATUSES.includes(status)) throw new HttpError(400, 'Invalid status');
  return staffMoveResponse(c, bookID, status);
});

dashboardRoutes.post('/confirmTransaction', body(idSchema), async (c) =>
  ok(c, { transaction: publicTransaction(await act.confirmTransaction(c, c.req.valid('json').id)) }),
);

// Owner only from here on.
const owner = requireRole(2);

for (const method of ['put', 'post'] as const) {
  dashboardRoutes[method]('/makeAdmin', owner, body(userIdSchema), (c) =>
    permissionResponse(c, c.req.valid('json').userID, 'makeAdmin'),
  );
  dashboardRoutes[method]('/removeAdmin', owner, body(userIdSchema), (c) =>
    permissionResponse(c, c.req.valid('json').userID, 'removeAdmin'),
  );
}

dashboardRoutes.post('/deactivateBooks', owner, validate('json', unlistSchema), async (c) =>
  ok(c, await act.runUnlisting(c, c.req.valid('json')?.days)),
);
