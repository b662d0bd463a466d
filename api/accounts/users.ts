// Reading accounts: by address (case-insensitive, as users_email_lower_key) and by role.
import type { Executor } from '../db/index.ts';

export interface UserRow {
  id: string;
  email: string;
  full_name: string | null;
  role: string;
  password_hash: string | null;
  email_verified_at: Date | null;
}

/** The account of an address, whatever its case (users_email_lower_key). */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'full_name', 'role', 'password_hash', 'email_verified_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

/** Whether the database holds at least one administrator (the server's start-up hint). */
export async function hasAdmin(db: Executor): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
