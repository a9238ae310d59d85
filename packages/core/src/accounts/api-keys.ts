import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppError } from '../errors/app-error';
import type { Queryable } from '../store/store';
import { iso } from '../util/timestamps';
import { type KeyPolicy, storedKeyPolicy } from './key-policy';

/** Every raw key starts with this, so leaked keys are recognisable by secret scanners. */
export const API_KEY_PREFIX = 'dbo_';
/** How much of the raw key is kept in clear to identify it in listings. */
const VISIBLE_LENGTH = API_KEY_PREFIX.length + 8;

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  /** The owner's restrictions on the key; absent when it has the owner's full rights (the spec's shape). */
  policy?: KeyPolicy;
}

export interface CreatedApiKey extends ApiKeySummary {
  /** The raw key; returned once, never stored. */
  key: string;
}

/** Keys are 256-bit random secrets, so one SHA-256 is enough; a slow hash would only cost latency. */
export const hashApiKey = (raw: string): string => createHash('sha256').update(raw, 'utf8').digest('hex');

type KeyRow = { id: string; name: string; prefix: string; created_at: unknown; policy: unknown };

const toSummary = (r: KeyRow): ApiKeySummary => {
  const policy = storedKeyPolicy(r.policy);
  return { id: r.id, name: r.name, prefix: r.prefix, created_at: iso(r.created_at), ...(policy ? { policy } : {}) };
};

export async function createApiKey(db: Queryable, userId: string, name: string, policy: KeyPolicy | null = null): Promise<CreatedApiKey> {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  const prefix = key.slice(0, VISIBLE_LENGTH);
  const res = await db.query<KeyRow>(
    `INSERT INTO api_keys (id, user_id, name, prefix, key_hash, policy) VALUES ($1, $2, $3, $4, $5, $6::jsonb)
     RETURNING id, name, prefix, created_at, policy`,
    [randomUUID(), userId, name, prefix, hashApiKey(key), policy ? JSON.stringify(policy) : null],
  );
  const row = res.rows[0];
  if (!row) throw new Error('insert returned no row');
  return { ...toSummary(row), key };
}

export async function listApiKeys(db: Queryable, userId: string): Promise<ApiKeySummary[]> {
  const res = await db.query<KeyRow>(
    `SELECT id, name, prefix, created_at, policy FROM api_keys
     WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`,
    [userId],
  );
  return res.rows.map(toSummary);
}

/** Soft-deletes a key of this user; the next request with it fails. */
export async function revokeApiKey(db: Queryable, userId: string, keyId: string): Promise<void> {
  const res = await db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id', [keyId, userId]);
  if (res.rows.length === 0) throw new AppError('NOT_FOUND', 'API key not found');
}

/** The owner of an active raw key and the key's policy, or null when it is unknown or revoked. */
export async function findApiKeyOwner(db: Queryable, rawKey: string): Promise<{ userId: string; keyId: string; policy: KeyPolicy | null } | null> {
  if (!rawKey.startsWith(API_KEY_PREFIX)) return null;
  const res = await db.query<{ id: string; user_id: string; policy: unknown }>(
    'SELECT id, user_id, policy FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [hashApiKey(rawKey)],
  );
  const row = res.rows[0];
  return row ? { userId: row.user_id, keyId: row.id, policy: storedKeyPolicy(row.policy) } : null;
}
