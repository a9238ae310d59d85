import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What `dbops analyze` leaves for `dbops apply`: the token is bound to this exact text and connection. */
export interface StoredToken {
  connection_id: string;
  approval_token: string;
  sql_sha256: string;
  file: string;
  risk_score: number;
  created_at: string;
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** `.dbops/tokens/<sha256 of the file's text>.json` under `dir` (the working directory). */
export const tokenPath = (dir: string, sql: string): string => path.join(dir, '.dbops', 'tokens', `${sha256(sql)}.json`);

export function storeToken(dir: string, sql: string, t: StoredToken): string {
  const file = tokenPath(dir, sql);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(t, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function loadToken(dir: string, sql: string): StoredToken | undefined {
  const file = tokenPath(dir, sql);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as StoredToken;
}
