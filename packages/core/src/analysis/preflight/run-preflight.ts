import { type AstNode, nodeBody, nodeKind, rangeVarName } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import type { ValidationResult } from '../types';
import { unverifiableReason } from '../live-expression-gate';
import { PREFLIGHT_CHECKS } from './checks';
import { definedBefore, firstDefinitions } from './earlier-definitions';
import { DEFAULT_PREFLIGHT_LIMITS, pgCode, type PreflightClient, type PreflightLimits, PreflightSession } from './preflight-session';
import { serverErrorSummary } from './server-error-summary';
import type { PreflightCheck, PreflightFinding, PreflightTask, TaskOutcome } from './types';

export interface PreflightInput {
  parsed: readonly ParsedStatement[];
  /** Facts of each statement, by index (from analyzeStatements, names already resolved). */
  facts: readonly StatementFacts[];
  /** An open connection to the target database; the preflight only reads through it. */
  client: PreflightClient;
  limits?: Partial<PreflightLimits>;
  checks?: readonly PreflightCheck[];
}

export interface PreflightReport {
  /** False when any check found that the migration would fail, or could not finish. */
  passed: boolean;
  findings: PreflightFinding[];
  duration_ms: number;
}

/** Why the live rows cannot answer a task: an earlier statement of the migration creates or changes what it reads. */
function changedEarlier(task: PreflightTask, parsed: readonly ParsedStatement[], facts: readonly StatementFacts[]): string | null {
  const tables = new Set(task.tables);
  const columns = new Set(task.columns ?? []);
  for (let i = 0; i < task.statementIndex; i++) {
    const s = parsed[i]!;
    const f = facts[i]!;
    const kind = nodeKind(s.stmt);
    const b = nodeBody(s.stmt);
    if (kind === 'DoStmt' || kind === 'CallStmt') return `statement ${i} (${f.statement_type}) runs code whose effect on the rows is unknown`;
    if ((kind === 'CreateStmt' || kind === 'CreateTableAsStmt') && tables.has(kind === 'CreateStmt' ? rangeVarName(b.relation) : rangeVarName(b.into?.rel)))
      return `the table is created by statement ${i}`;
    const touched = f.locks.filter((l) => tables.has(l.table));
    if (!touched.length) continue;
    if (f.effect === 'data' || f.statement_type === 'TRUNCATE' || kind === 'CopyStmt')
      return `statement ${i} (${f.statement_type}) changes the rows of ${touched[0]!.table} first`;
    for (const cmd of f.subcommands as AstNode[]) {
      const name = String(cmd.name ?? cmd.def?.ColumnDef?.colname ?? '');
      if (
        ['AT_AddColumn', 'AT_AlterColumnType', 'AT_DropColumn', 'AT_ColumnDefault', 'AT_SetExpression'].includes(String(cmd.subtype)) &&
        columns.has(`${f.table}.${name}`)
      ) {
        return `statement ${i} (${f.statement_type}) changes column ${name} first`;
      }
    }
    if (kind === 'RenameStmt') return `statement ${i} renames part of ${touched[0]!.table} first`;
  }
  return null;
}

/** Tables and columns the task reads that are missing or unreadable on the target: a reason to skip, or null. */
async function unreadable(session: PreflightSession, task: PreflightTask): Promise<string | null> {
  for (const t of task.tables) {
    const rel = await session.relation(t);
    if (!rel) return `${t} does not exist on the target (created or renamed by this migration, or the snapshot is stale)`;
    if (!rel.readable) return `the connection cannot read ${t} (no SELECT privilege)`;
  }
  for (const c of task.columns ?? []) {
    const dot = c.lastIndexOf('.');
    const [row] = await session.query<{ ok: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = $2 AND attnum > 0 AND NOT attisdropped) AS ok`,
      [(await session.relation(c.slice(0, dot)))!.sql, c.slice(dot + 1)],
    );
    if (!row?.ok) return `column ${c} does not exist on the target yet (created or renamed by this migration)`;
  }
  return null;
}

/** What a driver error during a check means for the report. */
function outcomeOfError(error: unknown, task: PreflightTask, session: PreflightSession): TaskOutcome {
  const code = pgCode(error);
  if (code === '57014')
    return {
      status: 'incomplete',
      detail: `${task.label}: could not finish within its statement_timeout; not verified on the live data (re-analyze when the database is quieter, or check it by hand)`,
    };
  if (code === '55P03')
    return {
      status: 'incomplete',
      detail: `${task.label}: waited ${session.limits.lockTimeoutMs} ms (lock_timeout) for an ACCESS SHARE lock: another session holds an ACCESS EXCLUSIVE lock on the table; not verified`,
    };
  if (code === '42501') return { status: 'skipped', detail: `${task.label}: skipped, the connection lacks a privilege to read what the check needs` };
  if (code === '25006')
    return {
      status: 'incomplete',
      detail: `${task.label}: evaluating the statement's expression would write to the database, so it was not evaluated on the live data`,
    };
  return { status: 'incomplete', detail: `${task.label}: the check failed to run (${serverErrorSummary(error)})` };
}

/** Why a task's expressions may not be evaluated on the target (the first that fails the gate), or null. */
async function gate(session: PreflightSession, task: PreflightTask): Promise<string | null> {
  const shapes = await task.evaluates(session);
  if (!shapes.length) return null;
  const version = await session.serverVersion();
  for (const shape of shapes) {
    const reason = await unverifiableReason(session.client, shape, version);
    if (reason) return reason;
  }
  return null;
}

/**
 * The preflight: for every statement whose success depends on the rows already in the target,
 * a read-only question to the target (see {@link PREFLIGHT_CHECKS}), one check at a time on
 * the given connection, each in its own READ ONLY transaction with lock and statement timeouts.
 */
export async function runPreflight(input: PreflightInput): Promise<PreflightReport> {
  const started = Date.now();
  const limits: PreflightLimits = { ...DEFAULT_PREFLIGHT_LIMITS, ...input.limits };
  const session = new PreflightSession(input.client, limits);
  const checks = input.checks ?? PREFLIGHT_CHECKS;
  const tasks: PreflightTask[] = [];
  // Index of the first statement that changes each table's definition (no copy per statement).
  const firstChange = new Map<string, number>();
  for (const stmt of input.parsed) {
    const facts = input.facts[stmt.index]!;
    const changedBefore = (table: string): boolean => (firstChange.get(table) ?? Infinity) < stmt.index;
    for (const c of checks) tasks.push(...c.tasks({ stmt, facts, subcommands: facts.subcommands, changedBefore }));
    if (facts.effect !== 'data') for (const l of facts.locks) if (!firstChange.has(l.table)) firstChange.set(l.table, stmt.index);
  }
  // Functions, types and relations an earlier statement defines: a check whose statement relies on
  // one would ask the live catalog about an object it does not have yet (or has in its old form).
  const defined = firstDefinitions(input.parsed);
  const findings: PreflightFinding[] = [];
  for (const task of tasks) {
    const t0 = Date.now();
    let outcome: TaskOutcome;
    const earlier = changedEarlier(task, input.parsed, input.facts) ?? definedBefore(input.parsed[task.statementIndex]!, defined);
    if (earlier) {
      outcome = { status: 'skipped', detail: `${task.label}: skipped, ${earlier}; the live rows cannot tell (the sandbox ran it)` };
    } else if (t0 - started > limits.budgetMs) {
      outcome = {
        status: 'incomplete',
        detail: `${task.label}: not run, the preflight's budget of ${Math.round(limits.budgetMs / 1000)} s was spent on earlier checks`,
      };
    } else {
      try {
        const why = await session.readOnly(() => unreadable(session, task));
        const unsafe = why ? null : await gate(session, task);
        outcome = why
          ? { status: 'skipped', detail: `${task.label}: skipped, ${why}` }
          : unsafe
            ? {
                status: 'skipped',
                unverified: true,
                detail: `${task.label}: not verified on the live data: ${unsafe}; it was not evaluated there (the sandbox ran it on synthetic rows)`,
              }
            : await session.readOnly(() => task.run(session));
      } catch (error) {
        outcome = outcomeOfError(error, task, session);
      }
    }
    findings.push({
      check: task.check,
      statement_index: task.statementIndex,
      status: outcome.status,
      detail: outcome.detail,
      sampled: !!outcome.sampled,
      unverified: !!outcome.unverified,
      duration_ms: Date.now() - t0,
    });
  }
  const passed = findings.every((f) => f.status === 'passed' || f.status === 'skipped');
  return { passed, findings, duration_ms: Date.now() - started };
}

const STATUS_WORD: Record<PreflightFinding['status'], string> = { passed: 'passed', failed: 'FAILED', incomplete: 'could not finish', skipped: 'skipped' };

/** Findings as `validation_results` entries: a failed or unfinished check is `passed: false`. */
export function preflightValidations(report: PreflightReport): ValidationResult[] {
  return report.findings.map((f) => ({
    check: f.check,
    passed: f.status === 'passed' || f.status === 'skipped',
    detail: `Statement ${f.statement_index} (${STATUS_WORD[f.status]}${f.sampled ? ', sampled' : ''}): ${f.detail}`,
  }));
}
