import type pg from 'pg';
import type { RawPlanNode } from './raw-plan';

/** What the optimizer needs from a database connection: `pg.Client` satisfies it. */
export interface SqlClient {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** First server version with `EXPLAIN (GENERIC_PLAN)`. */
const GENERIC_PLAN_MIN_VERSION = 160000;

let prepareCounter = 0;

/**
 * EXPLAIN on the user's database. Every call that could change data runs inside a transaction
 * that is always rolled back, so an analyzed INSERT/UPDATE/DELETE/MERGE is measured without
 * being applied. Queries with `$n` parameters are planned generically: `EXPLAIN (GENERIC_PLAN)`
 * on PostgreSQL 16+, and on older servers a prepared statement explained with
 * `plan_cache_mode = force_generic_plan`.
 */
export class PlanSession {
  constructor(
    readonly client: SqlClient,
    readonly serverVersionNum: number,
    /** Statement timeout for analyzed runs, in milliseconds. */
    readonly analyzeTimeoutMs: number,
  ) {}

  /** Runs `fn` in a transaction that is rolled back whatever happens. */
  async rolledBack<T>(fn: () => Promise<T>): Promise<T> {
    await this.client.query('BEGIN');
    try {
      return await fn();
    } finally {
      await this.client.query('ROLLBACK').catch(() => undefined);
    }
  }

  /** The estimated plan (no execution). */
  async planJson(sql: string, paramCount: number): Promise<RawPlanNode> {
    const rows = await this.explain(sql, paramCount, 'FORMAT JSON, VERBOSE');
    return firstPlan(rows);
  }

  /** The estimated plan's total cost. */
  async planCost(sql: string, paramCount: number): Promise<number> {
    return (await this.planJson(sql, paramCount))['Total Cost'];
  }

  /** The text form of the estimated plan. */
  async planText(sql: string, paramCount: number): Promise<string> {
    return textOf(await this.explain(sql, paramCount, 'FORMAT TEXT, VERBOSE'));
  }

  /**
   * EXPLAIN ANALYZE in JSON and in text, each in its own rolled-back savepoint of one
   * rolled-back transaction with a statement timeout, so the second run sees the data the first saw.
   */
  async analyze(sql: string): Promise<{ plan: RawPlanNode; text: string }> {
    return this.rolledBack(async () => {
      // Only statements the strict guardrail allows get here (analyze-guardrail.ts); READ ONLY
      // is its backstop for anything the check could not see.
      await this.client.query('SET TRANSACTION READ ONLY');
      await this.client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(this.analyzeTimeoutMs))}`);
      await this.client.query('SAVEPOINT dbops_analyze');
      const json = await this.client.query(`EXPLAIN (ANALYZE, FORMAT JSON, VERBOSE, BUFFERS) ${sql}`);
      await this.client.query('ROLLBACK TO SAVEPOINT dbops_analyze');
      const text = await this.client.query(`EXPLAIN (ANALYZE, FORMAT TEXT, VERBOSE, BUFFERS) ${sql}`);
      return { plan: firstPlan(json.rows), text: textOf(text.rows) };
    });
  }

  private async explain(sql: string, paramCount: number, options: string): Promise<Array<Record<string, unknown>>> {
    if (paramCount === 0) return (await this.client.query(`EXPLAIN (${options}) ${sql}`)).rows;
    if (this.serverVersionNum >= GENERIC_PLAN_MIN_VERSION) {
      return (await this.client.query(`EXPLAIN (GENERIC_PLAN, ${options}) ${sql}`)).rows;
    }
    const name = `dbops_opt_${process.pid}_${++prepareCounter}`;
    await this.client.query(`PREPARE ${name} AS ${sql}`);
    try {
      const nulls = Array.from({ length: paramCount }, () => 'NULL').join(', ');
      await this.client.query('SET plan_cache_mode = force_generic_plan');
      return (await this.client.query(`EXPLAIN (${options}) EXECUTE ${name}(${nulls})`)).rows;
    } finally {
      await this.client.query('RESET plan_cache_mode').catch(() => undefined);
      await this.client.query(`DEALLOCATE ${name}`).catch(() => undefined);
    }
  }
}

function firstPlan(rows: Array<Record<string, unknown>>): RawPlanNode {
  const cell = rows[0]?.['QUERY PLAN'];
  const doc = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: RawPlanNode }>;
  return doc[0]!.Plan;
}

const textOf = (rows: Array<Record<string, unknown>>): string => rows.map((r) => String(r['QUERY PLAN'])).join('\n');
