import { warmProofReads } from '../rollback-round-trip';
import type { CloneState } from '../sandbox-cache';
import { cloneFingerprint } from '../sandbox-run';
import type { SandboxSession } from '../sandbox-session';
import { rowCounts } from '../sandbox-validations';

/**
 * The clone whose rollback-proof baseline a spare reads, and the `SET search_path` its runs open
 * with (`searchPathSql` of the snapshot's, as `runInSandbox` computes it, so the baseline is kept
 * under the key the runs look it up by).
 */
export interface SpareBaseline {
  state: CloneState;
  pathSql: string | null;
}

/**
 * What a spare run identity's new session reads before its run, off the answer's path: a new
 * database's first queries fill the backend's catalog caches (every table the validations count,
 * the catalogs the proof's census reads), some hundreds of ms on a schema of 200 tables. The first
 * spare of a clone (`baseline`) also reads the proof's baseline for every run of that clone; the
 * others read only what the run's proof reads after its round trip (`warmProofReads`).
 */
export async function warmSpareSession(session: SandboxSession, tables: readonly string[], baseline?: SpareBaseline): Promise<void> {
  await rowCounts(session, tables);
  if (baseline) {
    if (baseline.pathSql) await session.exec(baseline.pathSql);
    await cloneFingerprint(baseline.state, session, baseline.pathSql);
  } else await warmProofReads(session);
}
