import type { LockMode } from './types';

/** Lock modes from weakest to strongest (PostgreSQL's numbering, explicit-locking chapter). */
export const LOCK_ORDER: readonly LockMode[] = [
  'NONE',
  'ACCESS SHARE',
  'ROW SHARE',
  'ROW EXCLUSIVE',
  'SHARE UPDATE EXCLUSIVE',
  'SHARE',
  'SHARE ROW EXCLUSIVE',
  'EXCLUSIVE',
  'ACCESS EXCLUSIVE',
];

/** Rank of each mode in {@link LOCK_ORDER}: a lookup, as risk scores and several rules rank every statement's locks. */
const LOCK_RANK = new Map<LockMode, number>(LOCK_ORDER.map((m, i) => [m, i]));

export const lockRank = (m: LockMode): number => LOCK_RANK.get(m) ?? -1;

export function strongest(modes: readonly LockMode[]): LockMode {
  let out: LockMode = 'NONE';
  for (let i = 0; i < modes.length; i++) if (lockRank(modes[i]!) > lockRank(out)) out = modes[i]!;
  return out;
}

/** What ordinary traffic a lock mode blocks, from the conflict table of the explicit-locking chapter. */
export function blockedOperations(m: LockMode): { reads: boolean; writes: boolean; text: string } {
  switch (m) {
    case 'ACCESS EXCLUSIVE':
      return { reads: true, writes: true, text: 'blocks reads and writes (every query on the table waits)' };
    case 'EXCLUSIVE':
      return { reads: false, writes: true, text: 'blocks writes and SELECT ... FOR UPDATE/SHARE; plain reads continue' };
    case 'SHARE ROW EXCLUSIVE':
    case 'SHARE':
      return { reads: false, writes: true, text: 'blocks writes (INSERT, UPDATE, DELETE); reads continue' };
    case 'SHARE UPDATE EXCLUSIVE':
      return { reads: false, writes: false, text: 'blocks only schema changes, VACUUM and other SHARE UPDATE EXCLUSIVE operations; reads and writes continue' };
    case 'ROW EXCLUSIVE':
      return {
        reads: false,
        writes: false,
        text: 'conflicts only with SHARE and stronger locks (index builds, DDL); row locks block concurrent writers of the same rows',
      };
    default:
      return { reads: false, writes: false, text: 'blocks only ACCESS EXCLUSIVE operations' };
  }
}

/** Parser AccessShareLock-style names for LOCK TABLE ... IN <mode> MODE (LockStmt.mode is the lock number). */
export const LOCK_BY_NUMBER: Record<number, LockMode> = {
  1: 'ACCESS SHARE',
  2: 'ROW SHARE',
  3: 'ROW EXCLUSIVE',
  4: 'SHARE UPDATE EXCLUSIVE',
  5: 'SHARE',
  6: 'SHARE ROW EXCLUSIVE',
  7: 'EXCLUSIVE',
  8: 'ACCESS EXCLUSIVE',
};
