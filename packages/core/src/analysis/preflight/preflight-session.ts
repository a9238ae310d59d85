import type pg from 'pg';
import { quoteQualified } from '../../pg/quote';

/** Limits of the preflight: how long a check may run, when it samples, how long it waits for a lock. */
export interface PreflightLimits {
  /** Tables whose heap is larger than this are sampled (TABLESAMPLE SYSTEM); default 1 GiB. */
  sampleAboveBytes: number;
  /** Bytes of heap a sample reads; default 128 MiB. */
  sampleBytes: number;
  /** `lock_timeout` of every check (ACCESS SHARE waits only behind ACCESS EXCLUSIVE); default 2 s. */
  lockTimeoutMs: number;
  /** `statement_timeout` floor and ceiling; between them it grows with the bytes read. */
  minStatementTimeoutMs: number;
  maxStatementTimeoutMs: number;
  /** Throughput assumed when sizing `statement_timeout` (bytes per ms); conservative on purpose. */
  bytesPerMs: number;
  /** Wall-time budget of the whole preflight; checks not started by then are reported incomplete. */
  budgetMs: number;
}

export const DEFAULT_PREFLIGHT_LIMITS: PreflightLimits = {
  sampleAboveBytes: 2 ** 30,
  sampleBytes: 128 * 2 ** 20,
  lockTimeoutMs: 2_000,
  minStatementTimeoutMs: 2_000,
  maxStatementTimeoutMs: 30_000,
  bytesPerMs: 20_000,
  budgetMs: 60_000,
};

/** The live size of a relation, read from the catalog inside the check's transaction. */
export interface LiveRelation {
  oid: number;
  /** Quoted qualified name, ready for SQL. */
  sql: string;
  /** `schema.name` as the analysis writes it. */
  name: string;
  kind: string;
  heapBytes: number;
  reltuples: number;
  readable: boolean;
}

/** A relation read whole or through a sample, with the statement_timeout already set for it. */
export interface ScanSource {
  /** `schema.t` or `schema.t TABLESAMPLE SYSTEM (p)`, to follow FROM. */
  from: string;
  sampled: boolean;
  /** Percentage of pages read (100 when whole). */
  percent: number;
  rel: LiveRelation;
  timeoutMs: number;
}

/** Minimal client surface the preflight needs (a `pg.Client` or a pooled client). */
export type PreflightClient = Pick<pg.Client, 'query'>;

/**
 * One connection to the target, used one check at a time. Every check runs inside a
 * `READ ONLY` transaction (so nothing it evaluates can write: a USING expression calling a
 * function that inserts fails with 25006 instead), with `lock_timeout` set so a check never
 * queues behind an ACCESS EXCLUSIVE holder for long, and a `statement_timeout` sized to what it
 * reads, and serial (no parallel workers). Plain SELECTs take ACCESS SHARE on what they read and
 * nothing stronger.
 */
export class PreflightSession {
  private version: number | undefined;

  constructor(
    readonly client: PreflightClient,
    readonly limits: PreflightLimits = DEFAULT_PREFLIGHT_LIMITS,
  ) {}

  async query<R extends object = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
    return (await this.client.query(text, params)).rows as R[];
  }

  /** `server_version_num`, e.g. 150004. */
  async serverVersion(): Promise<number> {
    if (this.version === undefined) {
      const [row] = await this.query<{ v: string }>(`SELECT current_setting('server_version_num') AS v`);
      this.version = Number(row?.v ?? 0);
    }
    return this.version;
  }

  /** Runs `fn` in a READ ONLY transaction with the preflight's lock and statement timeouts; always rolls back. */
  async readOnly<T>(fn: () => Promise<T>): Promise<T> {
    await this.client.query('BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      await this.client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(this.limits.lockTimeoutMs))}`);
      await this.client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(this.limits.minStatementTimeoutMs))}`);
      // One process per check, as the statement's own validation runs (ALTER TABLE's scan and a
      // foreign key's check query are never parallel): the preflight takes no parallel workers
      // from the live server's shared pool, and its wall time measures the work the statement
      // will do under its lock (the lock-time estimate reads it: measuredScans).
      await this.client.query('SET LOCAL max_parallel_workers_per_gather = 0');
      return await fn();
    } finally {
      await this.client.query('ROLLBACK').catch(() => undefined);
    }
  }

  /**
   * Plans the transaction's next reads as the statement's own validation runs them, so a check's
   * time measures that work (the lock-time estimate reads it: measuredScans). `heap`: every row
   * read from the heap, as ALTER TABLE's scan for a CHECK, a SET NOT NULL or a partition bound
   * reads it (a count over a narrow index would be quicker, and time another read). `foreign-key`:
   * the memory PostgreSQL gives a foreign key's validation query (RI_Initial_Check: work_mem at
   * maintenance_work_mem, hash_mem_multiplier 1), which decides between a hash and a merge join.
   */
  async planAsValidation(kind: 'heap' | 'foreign-key'): Promise<void> {
    if (kind === 'heap') {
      await this.client.query('SET LOCAL enable_indexscan = off; SET LOCAL enable_indexonlyscan = off; SET LOCAL enable_bitmapscan = off');
      return;
    }
    const hashMem = (await this.serverVersion()) >= 130000 ? `, set_config('hash_mem_multiplier', '1', true)` : '';
    await this.client.query(`SELECT set_config('work_mem', current_setting('maintenance_work_mem'), true)${hashMem}`);
  }

  /** Sets the transaction's `statement_timeout` (ms), clamped to the limits. */
  async setTimeout(ms: number): Promise<number> {
    const t = Math.round(Math.min(this.limits.maxStatementTimeoutMs, Math.max(this.limits.minStatementTimeoutMs, ms)));
    await this.client.query(`SET LOCAL statement_timeout = ${t}`);
    return t;
  }

  /** The live relation `schema.name`, or null when it does not exist on the target. */
  async relation(name: string): Promise<LiveRelation | null> {
    const [row] = await this.query<{ oid: number; kind: string; heap: string; reltuples: number; readable: boolean }>(
      `SELECT c.oid::int AS oid, c.relkind::text AS kind,
              CASE WHEN c.relkind = 'p' THEN (SELECT coalesce(sum(pg_relation_size(i.inhrelid)), 0) FROM pg_inherits i WHERE i.inhparent = c.oid)
                   ELSE pg_relation_size(c.oid) END::text AS heap,
              c.reltuples::float8 AS reltuples,
              has_table_privilege(c.oid, 'SELECT') AS readable
         FROM pg_class c WHERE c.oid = to_regclass($1)`,
      [quoteQualified(name)],
    );
    if (!row) return null;
    return {
      oid: row.oid,
      sql: quoteQualified(name),
      name,
      kind: row.kind,
      heapBytes: Number(row.heap),
      reltuples: Math.max(0, row.reltuples),
      readable: row.readable,
    };
  }

  /**
   * How a check reads `rel`: whole, or above `sampleAboveBytes` through `TABLESAMPLE SYSTEM`
   * sized to read about `sampleBytes`; sets `statement_timeout` for that many bytes times
   * `cost` (1 for a filter, more for sorts and joins).
   */
  async scan(rel: LiveRelation, cost = 1): Promise<ScanSource> {
    const sampled = rel.heapBytes > this.limits.sampleAboveBytes;
    const percent = sampled ? Math.max(0.01, Math.min(100, (100 * this.limits.sampleBytes) / rel.heapBytes)) : 100;
    const bytes = sampled ? this.limits.sampleBytes : rel.heapBytes;
    const timeoutMs = await this.setTimeout(this.limits.minStatementTimeoutMs + (bytes / this.limits.bytesPerMs) * cost);
    const from = sampled ? `${rel.sql} TABLESAMPLE SYSTEM (${percent.toFixed(4)})` : rel.sql;
    return { from, sampled, percent, rel, timeoutMs };
  }
}

/** "in a 3.2 % sample of its pages" / "" for wording details. */
export const sampleNote = (s: Pick<ScanSource, 'sampled' | 'percent'>): string =>
  s.sampled
    ? ` (sampled: ${s.percent < 1 ? s.percent.toFixed(2) : s.percent.toFixed(1)} % of the table's pages; rows outside the sample were not checked)`
    : '';

/** A PostgreSQL error code of a driver error, or undefined. */
export const pgCode = (e: unknown): string | undefined => (e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : undefined);
