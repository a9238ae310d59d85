import type { Finding } from './guardrail';

/** A server snapshot as `txid_current_snapshot()` gives it: `xmin:xmax:xip,...` (64-bit txids). */
interface Snapshot {
  xmax: bigint;
  xip: Set<bigint>;
}

interface Verdict {
  findings: readonly Finding[];
  /** The server's snapshot taken before the check that found them (or at their last confirmation). */
  snapshot: string;
}

/** Statements remembered per connection, and transaction ids of our own kept: oldest dropped first. */
const MAX_VERDICTS = 256;
const MAX_OWN_XIDS = 4096;
/** More transactions than this ended since a verdict: it is checked again rather than walked through. */
const MAX_GAP = 10_000n;

/** SQL reading the server's snapshot: sent in the same round trip as the agent transaction's BEGIN. */
export const SNAPSHOT_SQL = 'SELECT pg_catalog.txid_current_snapshot()::text AS snap';

/**
 * Read while the statement probe exists: the request transaction's id and every transaction id
 * this backend holds (the probe's subtransaction included), as the server's lock table lists them.
 */
export const OWN_XIDS_SQL = `SELECT pg_catalog.txid_current_if_assigned()::text AS top,
  ARRAY(SELECT l.transactionid::text FROM pg_catalog.pg_locks l WHERE l.pid = pg_catalog.pg_backend_pid() AND l.locktype = 'transactionid') AS xids`;

function parseSnapshot(text: string): Snapshot | null {
  const m = /^(\d+):(\d+):([\d,]*)$/.exec(text);
  if (!m) return null;
  return { xmax: BigInt(m[2]!), xip: new Set(m[3] ? m[3].split(',').map((x) => BigInt(x)) : []) };
}

/**
 * What the agent guardrail's catalog check found for a statement on one connection, kept until
 * the catalog may have changed. The test is the server's own transaction bookkeeping, not a
 * time: a verdict is reused only when no transaction that could have written has ended on the
 * server since the check (every catalog change, DDL, GRANT, `CREATE OR REPLACE`, `ALTER ... SET`,
 * is written by a transaction, and a transaction that ended is gone from the snapshot's
 * in-progress list or below its `xmax`). The only ended transactions forgiven are this process's
 * own that cannot have changed anything: the statement probe's subtransaction (always rolled
 * back) and a strict agent's transaction (read only, always rolled back). So a DDL, a permission
 * change or any write by anyone else on the server (or by a human or non-strict agent request
 * here) makes the next request check again. On a database written to all the time, verdicts are
 * rarely reused; on one only read, a repeated statement skips the probe and the walk.
 */
export class CatalogVerdictCache {
  readonly #verdicts = new Map<string, Verdict>();
  readonly #own = new Set<bigint>();

  /** The verdict kept for this statement text, to be confirmed with {@link confirmed}. */
  lookup(text: string): Verdict | undefined {
    return this.#verdicts.get(text);
  }

  /**
   * The kept findings when no transaction other than our own harmless ones ended between the
   * verdict's snapshot and `now`; undefined otherwise (the verdict is dropped).
   */
  confirmed(text: string, verdict: Verdict, now: string): readonly Finding[] | undefined {
    const before = parseSnapshot(verdict.snapshot);
    const after = parseSnapshot(now);
    const ok = before !== null && after !== null && this.#onlyOwnEnded(before, after);
    if (!ok) {
      this.#verdicts.delete(text);
      return undefined;
    }
    verdict.snapshot = now;
    return verdict.findings;
  }

  /** Keeps the findings of a check that started after snapshot `before`. */
  remember(text: string, findings: readonly Finding[], before: string): void {
    this.#verdicts.delete(text);
    if (this.#verdicts.size >= MAX_VERDICTS) this.#verdicts.delete(this.#verdicts.keys().next().value!);
    this.#verdicts.set(text, { findings, snapshot: before });
  }

  /**
   * Transaction ids of ours that end without changing anything: `top` (the request's own
   * transaction) only when it is a strict agent's, which is read only and always rolled back; the
   * others (the probe's subtransaction, rolled back to its savepoint) always. Ids are 32-bit in
   * the lock table: they are widened with the epoch of `near`, a snapshot of the same moment.
   */
  rememberOwn(top: string | null, xids: readonly string[], strict: boolean, near: string): void {
    const snap = parseSnapshot(near);
    if (!snap) return;
    const epoch = snap.xmax >> 32n;
    for (const x of xids) {
      let full = (epoch << 32n) | BigInt(x);
      if (full > snap.xmax + 1_000_000n) full -= 1n << 32n;
      if (!strict && top !== null && full === BigInt(top)) continue;
      this.#own.add(full);
    }
    while (this.#own.size > MAX_OWN_XIDS) this.#own.delete(this.#own.values().next().value!);
  }

  #onlyOwnEnded(before: Snapshot, after: Snapshot): boolean {
    if (after.xmax < before.xmax || after.xmax - before.xmax > MAX_GAP) return false;
    for (const x of before.xip) if (!after.xip.has(x) && !this.#own.has(x)) return false;
    for (let x = before.xmax; x < after.xmax; x++) if (!after.xip.has(x) && !this.#own.has(x)) return false;
    return true;
  }
}
