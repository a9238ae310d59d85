import type pg from 'pg';
import { enforceGuardrail, multipleStatements } from './check-guardrail';
import { classifyStatement } from './classify-statement';
import type { Caller, GuardrailLevel } from './guardrail';
import type { JsonValue } from './json-values';
import { type ParsedStatement, parseSql, SqlSyntaxError } from './parse-sql';
import { PortalReader, type StatementResult, type TruncatedReason } from './portal-reader';
import { mapExecutionError, sqlError } from './sql-errors';
import { catalogFindings } from './catalog-check';
import { type CatalogVerdictCache, OWN_XIDS_SQL, SNAPSHOT_SQL } from './catalog-verdict-cache';
import type { Finding } from './guardrail';
import { type AnswerBudget, applyBudget, type TimeoutNotice, timeoutNotice } from './time-budget';
import { assertStatementLimit, MAX_STATEMENTS } from '../pg/statement-limit';

/** A POST /execute request after validation (defaults applied). */
export interface ExecuteRequest {
  sql: string;
  caller: Caller;
  guardrail: GuardrailLevel;
  /** 1-10000. */
  rowLimit: number;
  /** 1-120. */
  timeoutSeconds: number;
  /** The API key's policy lets agents call functions whose effects cannot be read (see catalog-check.ts). */
  allowOpaque?: boolean;
  /** When the answer must be sent (the gateway's limit); the statement limit is cut to fit it. */
  budget?: AnswerBudget;
  /** Most bytes of rows in the answer (`DBOPS_EXECUTE_MAX_RESULT_BYTES`); rows past it are cut. */
  maxResultBytes?: number;
}

/** The spec's SQL execution result; `affected_rows` only for INSERT/UPDATE/DELETE/MERGE. */
export interface ExecuteResult {
  columns: string[];
  rows: JsonValue[][];
  row_count: number;
  truncated: boolean;
  /** Why rows were cut, when {@link truncated}: `row_limit`, or `max_bytes` (the answer's byte budget). */
  truncated_reason?: TruncatedReason;
  /** The byte budget, when it cut the rows. */
  max_bytes?: number;
  affected_rows?: number;
  /** Present when `timeout_seconds` asked for more than the gateway allows and was cut (time-budget.ts). */
  timeout?: TimeoutNotice;
}

export interface ExecuteOptions {
  /** Cancels (or, with `terminate`, ends) backend `pid` from another session; used by the watchdog. */
  cancelBackend(pid: number, terminate: boolean): Promise<void>;
  /** How long past `timeout_seconds` the watchdog waits for the server's own statement_timeout. Default 1000 ms. */
  watchdogGraceMs?: number;
  /** How long after its cancel the watchdog terminates the backend. Default 1000 ms. */
  terminateAfterMs?: number;
  /**
   * Set when the session was opened with {@link SESSION_STARTUP_OPTIONS} and this
   * statement_timeout (a pooled session after `DISCARD ALL`): a human request with the same
   * timeout then needs no settings round trip.
   */
  sessionDefaults?: { statementTimeoutMs: number };
  /**
   * The session is given back through the pool's release, which rolls back an open transaction
   * before anyone else may use it: a strict agent's transaction (read-only, always rolled back)
   * is then left to it, off the answer's path.
   */
  rollbackOnRelease?: boolean;
  /** The connection's kept catalog-check verdicts (pooled sessions of one target share them). */
  catalogVerdicts?: CatalogVerdictCache;
}

/** Startup `options` that give a session the output settings json-values.ts expects. */
export const SESSION_STARTUP_OPTIONS = '-c DateStyle=ISO -c IntervalStyle=iso_8601 -c bytea_output=hex';

const DML_TYPES = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);
const DML_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** Session settings every request runs with: values must come back in the forms json-values.ts expects. */
const OUTPUT_SETTINGS = ["DateStyle = 'ISO, MDY'", "IntervalStyle = 'iso_8601'", "bytea_output = 'hex'"];

function runStatement(
  client: pg.Client,
  text: string,
  keep: number,
  drain: boolean,
  maxBytes: number | undefined,
  prelude: readonly string[] = [],
  rollbackAfter = false,
): Promise<StatementResult> {
  const reader = new PortalReader(text, keep, drain, maxBytes, prelude, rollbackAfter);
  client.query(reader as unknown as pg.Submittable);
  return reader.promise;
}

/** The session is inside a transaction block (pg's ReadyForQuery status, `I` when idle). */
export const inTransactionBlock = (client: pg.Client): boolean => (client as unknown as { _txStatus?: string | null })._txStatus !== 'I';

/** The last result's first row of a simple query that may hold several statements. */
function lastRow<R>(res: pg.QueryResult | pg.QueryResult[]): R | undefined {
  const last = Array.isArray(res) ? res[res.length - 1] : res;
  return last?.rows[0] as R | undefined;
}

function toResult(r: StatementResult, maxBytes: number | undefined): ExecuteResult {
  const out: ExecuteResult = { columns: r.columns, rows: r.rows, row_count: r.rows.length, truncated: r.truncated };
  if (r.truncatedReason) out.truncated_reason = r.truncatedReason;
  if (r.truncatedReason === 'max_bytes' && maxBytes !== undefined) out.max_bytes = maxBytes;
  if (r.command && DML_COMMANDS.has(r.command) && r.commandCount !== null) out.affected_rows = r.commandCount;
  return out;
}

async function parseForCaller(sql: string, caller: Caller): Promise<ParsedStatement[]> {
  try {
    return await parseSql(sql);
  } catch (error) {
    if (!(error instanceof SqlSyntaxError)) throw error;
    // An agent's text must be understood before it runs; a human's goes to the server, whose
    // error is the authoritative one (its version may differ from the parser's).
    if (caller === 'agent') throw sqlError('42601', error.message, error.position);
    return [{ type: 'Unparsed', node: {}, text: sql, offset: 0 }];
  }
}

/**
 * Runs a request on a connected client (the caller owns and closes it).
 *
 * Agents: exactly one statement, classified over its whole parse tree and checked against the
 * guardrail; then, inside a transaction with `SET LOCAL` timeouts (READ ONLY and always rolled
 * back at `strict`), the catalog is asked about VOLATILE functions before the statement runs
 * through the extended protocol. Humans: every statement runs as given, each through the
 * extended protocol with the same row limit; several statements share one transaction unless
 * they control transactions themselves; the result is the last statement's.
 *
 * In both cases a watchdog cancels the backend if the server's statement_timeout did not end
 * the request by `timeout_seconds` + grace (and terminates it two seconds later).
 */
export async function executeSql(client: pg.Client, req: ExecuteRequest, options: ExecuteOptions): Promise<ExecuteResult> {
  const statements = await parseForCaller(req.sql, req.caller);
  assertStatementLimit(statements.length, MAX_STATEMENTS.execute);
  if (statements.length === 0) throw sqlError(null, 'The request holds no SQL statement (only whitespace or comments).', null);
  const applied = applyBudget(req.timeoutSeconds, req.budget, Date.now());
  const timeoutMs = applied.appliedMs;
  // Said in the answer when the caller asked for more than the gateway could ever give.
  const notice = req.budget && applied.capped && req.timeoutSeconds > req.budget.gatewaySeconds ? timeoutNotice(applied, req.budget) : undefined;
  const done = (r: StatementResult): ExecuteResult => (notice ? { ...toResult(r, req.maxResultBytes), timeout: notice } : toResult(r, req.maxResultBytes));
  const agent = req.caller === 'agent';
  const strict = agent && req.guardrail === 'strict';

  let classification: ReturnType<typeof classifyStatement> | undefined;
  if (agent) {
    if (statements.length > 1) throw multipleStatements(statements.length, req.guardrail);
    classification = classifyStatement(statements[0]!);
    enforceGuardrail(classification, [], req.guardrail, req.allowOpaque);
  }

  const pid = (client as unknown as { processID: number }).processID;
  let timedOut = false;
  let terminated = false;
  let hardTimer: NodeJS.Timeout | undefined;
  // The answer waits for the backend to be gone: a terminated backend aborts its transaction
  // before it closes its socket, so nothing commits after the caller was told TIMEOUT.
  const watchdog = setTimeout(
    () => {
      timedOut = true;
      options.cancelBackend(pid, false).catch(() => undefined);
      hardTimer = setTimeout(() => {
        terminated = true;
        void options
          .cancelBackend(pid, true)
          .catch(() => undefined)
          .finally(() => (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy());
      }, options.terminateAfterMs ?? 1000);
    },
    timeoutMs + (options.watchdogGraceMs ?? 1000),
  );

  let current: ParsedStatement = statements[0]!;
  let inTransaction = false;
  try {
    if (agent) {
      // The catalog check creates (and rolls back) a probe function, so a strict transaction
      // becomes READ ONLY only after it; a statement that reaches no catalog object needs none,
      // nor does one whose kept verdict the server's snapshot confirms (catalog-verdict-cache.ts).
      const probes = classification!.reachesCatalog;
      const verdicts = probes ? options.catalogVerdicts : undefined;
      const kept = verdicts?.lookup(current.text);
      let readOnly = strict && (!probes || kept !== undefined);
      const beginWith = (ro: boolean) => (strict ? `BEGIN ISOLATION LEVEL READ COMMITTED${ro ? ' READ ONLY' : ''}` : 'BEGIN');
      // At strict the ROLLBACK rides in the statement's packet when its rows come in one Execute;
      // read in batches, the transaction is left open and ended here or by the pool's release.
      const runAndEnd = async (prelude: readonly string[]): Promise<ExecuteResult> => {
        const result = await runStatement(client, current.text, req.rowLimit, DML_TYPES.has(current.type), req.maxResultBytes, prelude, strict);
        if (!strict) await client.query('COMMIT');
        else if (!options.rollbackOnRelease && inTransactionBlock(client)) await client.query('ROLLBACK');
        inTransaction = false;
        return done(result);
      };
      // standard_conforming_strings as the parser assumes it, so the server lexes quotes and
      // backslashes of the statement exactly as the classifier did.
      const localSettings = [
        `statement_timeout = ${timeoutMs}`,
        `idle_in_transaction_session_timeout = ${timeoutMs + 5000}`,
        'standard_conforming_strings = on',
        ...OUTPUT_SETTINGS,
      ].map((s) => `SET LOCAL ${s}`);
      const locals = localSettings.join('; ');
      if (!probes) {
        // Nothing to ask the catalog: the transaction opens in the statement's own round trip
        // (each SET LOCAL ends its Execute, so the statement's timeout starts afresh from it).
        inTransaction = true;
        return await runAndEnd([beginWith(readOnly), ...localSettings]);
      }
      const opened = await client.query(`${beginWith(readOnly)}; ${locals}${verdicts ? `; ${SNAPSHOT_SQL}` : ''}`);
      inTransaction = true;
      const snapshot = verdicts ? lastRow<{ snap: string }>(opened)?.snap : undefined;
      let findings: readonly Finding[] | undefined = kept && snapshot ? verdicts!.confirmed(current.text, kept, snapshot) : undefined;
      if (probes && !findings && readOnly) {
        // The kept verdict is stale and the probe must write: a read-write transaction again.
        await client.query(`ROLLBACK; ${beginWith(false)}; ${locals}`);
        readOnly = false;
      }
      if (!findings) {
        const readOwn =
          verdicts && snapshot
            ? async () => {
                const own = (await client.query<{ top: string | null; xids: string[] }>(OWN_XIDS_SQL)).rows[0];
                if (own) verdicts.rememberOwn(own.top, own.xids, strict, snapshot);
              }
            : undefined;
        findings = await catalogFindings(client, current, classification!, undefined, readOwn);
        if (verdicts && snapshot) verdicts.remember(current.text, findings, snapshot);
      }
      enforceGuardrail({ findings: [] }, [...findings], req.guardrail, req.allowOpaque);
      return await runAndEnd(strict && !readOnly ? ['SET TRANSACTION READ ONLY'] : []);
    }

    const wrap = statements.length > 1 && !statements.some((s) => s.type === 'TransactionStmt' || s.type === 'Unparsed');
    const prelude = options.sessionDefaults
      ? options.sessionDefaults.statementTimeoutMs === timeoutMs
        ? []
        : [`SET statement_timeout = ${timeoutMs}`]
      : [`statement_timeout = ${timeoutMs}`, ...OUTPUT_SETTINGS].map((s) => `SET ${s}`);
    if (wrap) prelude.push('BEGIN');
    if (prelude.length > 0) await client.query(prelude.join('; '));
    inTransaction = wrap;
    let last: StatementResult | undefined;
    for (const s of statements) {
      current = s;
      last = await runStatement(client, s.text, req.rowLimit, DML_TYPES.has(s.type), req.maxResultBytes);
    }
    if (wrap) {
      await client.query('COMMIT');
      inTransaction = false;
    }
    return done(last!);
  } catch (error) {
    // After a cancel the session still answers: roll back before answering. A terminated
    // backend has already aborted its transaction.
    if (inTransaction && !terminated) await client.query('ROLLBACK').catch(() => undefined);
    throw mapExecutionError(error, {
      timedOut,
      timeoutSeconds: req.timeoutSeconds,
      applied: applied.capped ? { seconds: timeoutMs / 1000, notice: notice?.reason ?? null } : null,
      statementOffset: current.offset,
      strictLevel: strict ? req.guardrail : null,
    });
  } finally {
    clearTimeout(watchdog);
    if (hardTimer) clearTimeout(hardTimer);
  }
}
