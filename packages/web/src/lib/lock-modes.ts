/**
 * What each PostgreSQL table lock mode blocks, in plain words for reviewers. Derived from the
 * lock-conflict matrix of PostgreSQL's explicit-locking chapter; `severity` orders the modes
 * by how much ordinary traffic they stop (0 = nothing, 4 = everything).
 */
export interface LockInfo {
  blocks: string;
  severity: 0 | 1 | 2 | 3 | 4;
}

const LOCKS: Record<string, LockInfo> = {
  NONE: { blocks: 'Takes no table lock.', severity: 0 },
  'ACCESS SHARE': {
    blocks: 'Blocks only statements that need exclusive access (DROP, most ALTER TABLE, VACUUM FULL). Reads and writes continue.',
    severity: 0,
  },
  'ROW SHARE': { blocks: 'Blocks LOCK ... EXCLUSIVE and exclusive schema changes. Reads and writes continue.', severity: 1 },
  'ROW EXCLUSIVE': { blocks: 'Blocks CREATE INDEX (without CONCURRENTLY) and exclusive schema changes. Reads and writes continue.', severity: 1 },
  'SHARE UPDATE EXCLUSIVE': {
    blocks: 'Blocks VACUUM, ANALYZE, concurrent index builds and other schema changes on the table. Reads and writes continue.',
    severity: 2,
  },
  SHARE: { blocks: 'Blocks all writes (INSERT, UPDATE, DELETE) and schema changes. Reads continue.', severity: 3 },
  'SHARE ROW EXCLUSIVE': { blocks: 'Blocks all writes and schema changes, and other statements taking this lock. Reads continue.', severity: 3 },
  EXCLUSIVE: { blocks: 'Blocks all writes and SELECT ... FOR UPDATE/SHARE. Only plain reads continue.', severity: 3 },
  'ACCESS EXCLUSIVE': { blocks: 'Blocks everything on the table, reads included: queries queue behind it until it ends.', severity: 4 },
};

/** The plain-words description of a lock mode; unknown modes say so rather than guess. */
export function lockInfo(mode: string): LockInfo {
  return LOCKS[mode.toUpperCase()] ?? { blocks: `Lock mode ${mode}: see PostgreSQL's lock-conflict table.`, severity: 2 };
}
