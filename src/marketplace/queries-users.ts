/** SQL for users, pending sign-ups, password resets and notifications (schema `market`). */
import type { Queryable, Statement } from '../platform/db.ts';

export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  university: string;
  cmc: string;
  venmo_username: string;
  permission_type: number;
  books_sold: number;
  books_bought: number;
  money_made: string;
  token_version: number;
  created_at: Date;
}

export const USER_COLS = `id::text, email, first_name, last_name, university, cmc, venmo_username, permission_type,
  books_sold, books_bought, money_made::text, token_version, created_at`;

/** A user as the API shows it: the original's field names, never the password hash or tokens. */
export function publicUser(u: UserRow) {
  return {
    _id: u.id,
    emailAddress: u.email,
    firstName: u.first_name,
    lastName: u.last_name,
    university: u.university,
    CMC: u.cmc,
    venmoUsername: u.venmo_username,
    permissionType: u.permission_type,
    numberOfBooksSold: u.books_sold,
    numberOfBooksBought: u.books_bought,
    moneyMade: Number(u.money_made),
    createdAt: new Date(u.created_at).toISOString(),
  };
}

export interface SignupFields {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  university: string;
  cmc: string;
  venmoUsername: string;
}

export async function userExists(db: Queryable, email: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM market.users WHERE lower(email) = lower($1)', [email])).length > 0;
}

/**
 * Replaces any pending sign-up of this address (its link stops working: only the newest mail's link
 * confirms), then inserts; false only if a concurrent sign-up of the same address won the insert.
 */
export async function insertPendingSignup(
  tx: Queryable,
  f: SignupFields,
  tokenHash: string,
  ttlHours: number,
): Promise<boolean> {
  await tx.query('DELETE FROM market.pending_signups WHERE lower(email) = lower($1)', [f.email]);
  const rows = await tx.query(
    `INSERT INTO market.pending_signups (token_hash, email, password_hash, first_name, last_name, university, cmc, venmo_username, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(hours => $9::int))
     ON CONFLICT DO NOTHING RETURNING token_hash`,
    [tokenHash, f.email, f.passwordHash, f.firstName, f.lastName, f.university, f.cmc, f.venmoUsername, ttlHours],
  );
  return rows.length === 1;
}

export async function deletePendingSignup(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM market.pending_signups WHERE token_hash = $1', [tokenHash]);
}

/** Consumes a live pending sign-up (at most once: DELETE ... RETURNING) and creates the user. */
export async function confirmSignup(
  tx: Queryable,
  tokenHash: string,
  ownerEmails: readonly string[],
): Promise<UserRow | undefined> {
  const [p] = await tx.query<Record<string, string>>(
    'DELETE FROM market.pending_signups WHERE token_hash = $1 AND expires_at > now() RETURNING *',
    [tokenHash],
  );
  if (!p) return undefined;
  const permission = ownerEmails.includes(p.email!.toLowerCase()) ? 2 : 0;
  const [u] = await tx.query<UserRow>(
    `INSERT INTO market.users (email, password_hash, first_name, last_name, university, cmc, venmo_username, permission_type)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING ${USER_COLS}`,
    [p.email, p.password_hash, p.first_name, p.last_name, p.university, p.cmc, p.venmo_username, permission],
  );
  return u;
}

export async function userById(db: Queryable, id: string): Promise<UserRow | undefined> {
  return (await db.query<UserRow>(`SELECT ${USER_COLS} FROM market.users WHERE id = $1`, [id]))[0];
}

export async function userByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return (await db.query<UserRow>(`SELECT ${USER_COLS} FROM market.users WHERE lower(email) = lower($1)`, [email]))[0];
}

export async function credentialsByEmail(
  db: Queryable,
  email: string,
): Promise<{ id: string; password_hash: string; token_version: number } | undefined> {
  return (
    await db.query<{ id: string; password_hash: string; token_version: number }>(
      'SELECT id::text, password_hash, token_version FROM market.users WHERE lower(email) = lower($1)',
      [email],
    )
  )[0];
}

export async function passwordHashById(db: Queryable, id: string): Promise<string | undefined> {
  return (await db.query<{ password_hash: string }>('SELECT password_hash FROM market.users WHERE id = $1', [id]))[0]
    ?.password_hash;
}

/** The principal's current permission and token version (checked on every authenticated request). */
export interface AuthState {
  permission_type: number;
  token_version: number;
}

/**
 * A read statement whose rows come back as one JSON array, in its order (`rows`): one value for the
 * driver to decode instead of a typed value per column and row (timestamps arrive as ISO text, other
 * columns as the statement casts them). The read routes' statements go through it with or without a
 * signed-in viewer, so both answer from rows of one shape.
 */
export function rowsAsJson(st: Statement): Statement {
  return { text: `SELECT ${jsonRows(st.text)}`, params: st.params };
}

const jsonRows = (text: string) => `(SELECT COALESCE(json_agg(t), '[]'::json) FROM (${text}) t) AS rows`;

/**
 * rowsAsJson with the user's auth state read by the same statement (one round trip): `auth` is the
 * user's AuthState as JSON, null when there is no such user.
 */
export function withAuthState(st: Statement, userId: string): Statement {
  const n = st.params.length + 1;
  return {
    text: `SELECT (SELECT json_build_object('permission_type', u.permission_type, 'token_version', u.token_version)
        FROM market.users u WHERE u.id = $${n}::bigint) AS auth, ${jsonRows(st.text)}`,
    params: [...st.params, userId],
  };
}

/** The user's AuthState, read on its own (the signed-in writes and the other routes). */
export async function authState(db: Queryable, id: string): Promise<AuthState | undefined> {
  return (await db.query<AuthState>('SELECT permission_type, token_version FROM market.users WHERE id = $1', [id]))[0];
}

export async function updateProfile(
  db: Queryable,
  id: string,
  p: {
    firstName?: string | undefined;
    lastName?: string | undefined;
    venmoUsername?: string | undefined;
    CMC?: string | undefined;
  },
): Promise<UserRow | undefined> {
  return (
    await db.query<UserRow>(
      `UPDATE market.users SET first_name = coalesce($2, first_name), last_name = coalesce($3, last_name),
       venmo_username = coalesce($4, venmo_username), cmc = coalesce($5, cmc)
     WHERE id = $1 RETURNING ${USER_COLS}`,
      [id, p.firstName ?? null, p.lastName ?? null, p.venmoUsername ?? null, p.CMC ?? null],
    )
  )[0];
}

/** Sets a new password and bumps the token version (older tokens stop working). */
export async function setPassword(db: Queryable, id: string, passwordHash: string): Promise<number> {
  const [r] = await db.query<{ token_version: number }>(
    `UPDATE market.users SET password_hash = $2, token_version = token_version + 1, reset_token_hash = NULL, reset_expires_at = NULL
     WHERE id = $1 RETURNING token_version`,
    [id, passwordHash],
  );
  return r!.token_version;
}

/** Ends every session of the user (logout): tokens of older versions are refused from now on. */
export async function revokeSessions(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE market.users SET token_version = token_version + 1 WHERE id = $1', [id]);
}

export async function setResetToken(db: Queryable, id: string, tokenHash: string, ttlMinutes: number): Promise<void> {
  await db.query(
    'UPDATE market.users SET reset_token_hash = $2, reset_expires_at = now() + make_interval(mins => $3::int) WHERE id = $1',
    [id, tokenHash, ttlMinutes],
  );
}

export async function userIdByResetToken(db: Queryable, tokenHash: string): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>(
      'SELECT id::text FROM market.users WHERE reset_token_hash = $1 AND reset_expires_at > now()',
      [tokenHash],
    )
  )[0]?.id;
}

/** Consumes a live reset token and sets the password in one statement (a token works once). */
export async function resetPassword(
  db: Queryable,
  tokenHash: string,
  passwordHash: string,
): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>(
      `UPDATE market.users SET password_hash = $2, token_version = token_version + 1, reset_token_hash = NULL, reset_expires_at = NULL
     WHERE reset_token_hash = $1 AND reset_expires_at > now() RETURNING id::text`,
      [tokenHash, passwordHash],
    )
  )[0]?.id;
}

export async function addNotification(db: Queryable, userId: string, message: string): Promise<void> {
  await db.query('INSERT INTO market.notifications (user_id, message) VALUES ($1, $2)', [userId, message]);
}

export async function addNotifications(
  db: Queryable,
  userIds: readonly string[],
  messages: readonly string[],
): Promise<void> {
  if (!userIds.length) return;
  await db.query('INSERT INTO market.notifications (user_id, message) SELECT * FROM unnest($1::bigint[], $2::text[])', [
    userIds,
    messages,
  ]);
}

export async function notificationsOf(
  db: Queryable,
  userId: string,
  limit = 100,
): Promise<{ date: string; message: string }[]> {
  const rows = await db.query<{ created_at: Date; message: string }>(
    'SELECT created_at, message FROM market.notifications WHERE user_id = $1 ORDER BY id DESC LIMIT $2',
    [userId, limit],
  );
  return rows.map((r) => ({ date: new Date(r.created_at).toISOString(), message: r.message }));
}

export async function matchedBookIds(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT DISTINCT m.book_id::text AS id FROM market.matches m JOIN market.requests r ON r.id = m.request_id
     WHERE r.owner_id = $1 AND r.status = 0 ORDER BY 1`,
    [userId],
  );
  return rows.map((r) => r.id);
}

export function statisticsOf(u: UserRow) {
  return { numberOfBooksBought: u.books_bought, numberOfBooksSold: u.books_sold, moneyMade: Number(u.money_made) };
}
