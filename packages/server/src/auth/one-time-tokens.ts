/** Activation and reset tokens: 256 random bits, only their SHA-256 stored, single use, expiring. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import { hashToken, newOneTimeToken } from './tokens.js';

/** Lifetimes (docs/decisions.md, Accounts): reset is the issue's 60 minutes; the others are ours. */
export const TOKEN_TTL_MS = {
  activation: 7 * 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
  invite: 14 * 24 * 60 * 60 * 1000,
} as const;

export type OneTimePurpose = 'activation' | 'reset';
type Db = Kysely<Database> | Transaction<Database>;

/**
 * Creates a token for the user and returns it in clear (it goes into a mail link, never into the database). `now` is
 * the server's clock (core/clock.ts serverNow), the one its use is checked by.
 */
export async function issueOneTimeToken(db: Db, userId: string, purpose: OneTimePurpose, now: Date): Promise<string> {
  const { token, hash } = newOneTimeToken();
  await db
    .insertInto('one_time_tokens')
    .values({ user_id: userId, purpose, token_hash: hash, expires_at: new Date(now.getTime() + TOKEN_TTL_MS[purpose]) })
    .execute();
  return token;
}

/**
 * Uses a token: one atomic UPDATE marks it used only if it is unused and unexpired at `now` (the server's clock), so
 * two concurrent uses cannot both succeed. Returns the user id, or null for an unknown, used or expired token.
 */
export async function consumeOneTimeToken(
  db: Db,
  purpose: OneTimePurpose,
  token: string,
  now: Date,
): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const row = await db
    .updateTable('one_time_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Retires every open token of a purpose for a user (after a reset, all other reset links die). */
export async function retireOneTimeTokens(db: Db, userId: string, purpose: OneTimePurpose): Promise<void> {
  await db
    .updateTable('one_time_tokens')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
