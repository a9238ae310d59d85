import { randomUUID } from 'node:crypto';
import type { Queryable } from '../store/store';

/**
 * The user behind a JWT, created on first sight with the free credits of the spec (section 8).
 * Identity is the issuer and subject pair, so two identity providers never share a user.
 */
export async function ensureUser(db: Queryable, issuer: string, subject: string): Promise<string> {
  const found = await db.query<{ id: string }>('SELECT id FROM users WHERE issuer = $1 AND subject = $2', [issuer, subject]);
  if (found.rows[0]) return found.rows[0].id;
  await db.query('INSERT INTO users (id, issuer, subject) VALUES ($1, $2, $3) ON CONFLICT (issuer, subject) DO NOTHING', [randomUUID(), issuer, subject]);
  const created = await db.query<{ id: string }>('SELECT id FROM users WHERE issuer = $1 AND subject = $2', [issuer, subject]);
  const row = created.rows[0];
  if (!row) throw new Error('user row vanished after insert');
  return row.id;
}
