import { deparse } from '../../pg/deparse';
import { quoteIdent, quoteQualified } from '../../pg/quote';
import { type AstNode, nodeKind } from '../ast';
import { findFailingRows, tryUnderSavepoint } from './failing-rows';
import { count, rowIdentity } from './row-identity';
import { type LiveRelation, type PreflightSession, sampleNote, type ScanSource } from './preflight-session';
import { showValue } from './sensitive-values';
import { serverMessageSummary } from './server-error-summary';
import type { PreflightCheck, PreflightContext, PreflightTask, TaskOutcome } from './types';

const CHECK = 'preflight_type_cast';

/** Source types whose values reach the new type through its input function (text I/O). */
const TEXTUAL = /^(text|character varying|character|name|citext)\b/;

/** varchar(n) / char(n) targets: an assignment (what ALTER TYPE does) errors where an explicit cast truncates. */
const lengthLimit = (target: string): number | null => {
  const m = /^(?:pg_catalog\.)?(?:varchar|character varying|char|character|bpchar)\((\d+)\)$/i.exec(target.replace(/\s+/g, ' ').trim());
  return m ? Number(m[1]) : null;
};

interface CastPlan {
  table: string;
  column: string;
  /** Target type as SQL, e.g. `numeric(12, 2)`. */
  target: string;
  /** The value converted: the USING expression, or the column. */
  value: string;
  using: AstNode | undefined;
}

/** PostgreSQL 16+: count and sample failing values with pg_input_is_valid, no error raised at all. */
async function viaInputIsValid(session: PreflightSession, plan: CastPlan, types: string[], src: ScanSource, what: string): Promise<TaskOutcome> {
  const col = quoteIdent(plan.column);
  const invalid = types.map((_, i) => `NOT pg_input_is_valid(${col}::text, $${i + 1})`).join(' OR ');
  const id = await rowIdentity(session, src.rel);
  const rows = await session.query<{ id: unknown; v: string; total: string }>(
    `SELECT ${id.sql} AS id, ${col}::text AS v, count(*) OVER () AS total FROM ${src.from} WHERE ${col} IS NOT NULL AND (${invalid}) LIMIT 5`,
    types,
  );
  if (rows.length === 0) return { status: 'passed', detail: `${what}: every value converts${sampleNote(src)}`, sampled: src.sampled };
  let message = '';
  for (const t of types) {
    const [e] = await session.query<{ message: string | null }>(`SELECT message FROM pg_input_error_info($1, $2)`, [rows[0]!.v, t]);
    if (e?.message) {
      message = serverMessageSummary(e.message);
      break;
    }
  }
  return {
    status: 'failed',
    detail: `${what} would fail: ${count(rows[0]!.total)} value(s)${src.sampled ? ' in the sample' : ''} do not convert, e.g. ${rows.map((r) => `${id.show(r.id)} (${plan.column} = ${showValue(plan.column, r.v)})`).join('; ')}; first error: ${message}${sampleNote(src)}`,
    sampled: src.sampled,
  };
}

/** Any server: evaluate the conversion over the rows; on an error, find up to 5 failing rows by bisection. */
async function viaEvaluation(session: PreflightSession, plan: CastPlan, src: ScanSource, what: string): Promise<TaskOutcome> {
  const cast = `CAST((${plan.value}) AS ${plan.target})`;
  const limit = lengthLimit(plan.target);
  const tooLong = limit === null ? null : `char_length(rtrim(CAST((${plan.value}) AS text), ' ')) > ${limit}`;
  // A conversion that does not exist fails at planning, whatever the data: that is the sandbox's question.
  const planning = await tryUnderSavepoint(session, `SELECT ${cast} FROM ${src.rel.sql} WHERE false`);
  if (planning)
    return { status: 'incomplete', detail: `${what}: the conversion could not be evaluated on the live table (${serverMessageSummary(planning.message)})` };
  const bulk = await tryUnderSavepoint(session, `SELECT count(${cast}) FROM ${src.from}`);
  const id = await rowIdentity(session, src.rel);
  if (!bulk && tooLong) {
    const rows = await session.query<{ id: unknown; total: string }>(
      `SELECT ${id.sql} AS id, count(*) OVER () AS total FROM ${src.from} WHERE ${tooLong} LIMIT 5`,
    );
    if (rows.length) {
      return {
        status: 'failed',
        detail: `${what} would fail: ${count(rows[0]!.total)} value(s)${src.sampled ? ' in the sample' : ''} are longer than ${limit} characters, e.g. ${rows.map((r) => id.show(r.id)).join(', ')}; first error: value too long for type ${plan.target}${sampleNote(src)}`,
        sampled: src.sampled,
      };
    }
  }
  if (!bulk) return { status: 'passed', detail: `${what}: every value converts${sampleNote(src)}`, sampled: src.sampled };
  let found: { ctids: string[]; complete: boolean } = { ctids: [], complete: false };
  try {
    found = await findFailingRows(session, src.rel, cast);
  } catch {
    // The statement is known to fail; running out of time while collecting examples changes nothing.
  }
  let examples = '';
  if (found.ctids.length) {
    const rows = await session.query<{ id: unknown; v: string }>(
      `SELECT ${id.sql} AS id, ${quoteIdent(plan.column)}::text AS v FROM ${src.rel.sql} WHERE ctid = ANY($1::tid[])`,
      [found.ctids],
    );
    examples = `, e.g. ${rows.map((r) => `${id.show(r.id)} (${plan.column} = ${showValue(plan.column, r.v)})`).join('; ')}`;
  }
  const howMany = found.ctids.length ? `at least ${found.ctids.length} row(s)` : 'some rows';
  return {
    status: 'failed',
    detail: `${what} would fail: ${howMany} do not convert${examples}; first error: ${serverMessageSummary(bulk.message)}${sampleNote(src)}`,
    sampled: src.sampled,
  };
}

/**
 * What the conversion evaluates: the cast of the value, and, when the target is a domain, the
 * domain's CHECK conditions (a cast to a domain runs them).
 */
async function castShapes(session: PreflightSession, plan: CastPlan): Promise<string[]> {
  const shapes = [`SELECT CAST((${plan.value}) AS ${plan.target}) FROM ${quoteQualified(plan.table)}`];
  const checks = await session.query<{ base: string; expr: string }>(
    `SELECT format_type(t.typbasetype, t.typtypmod) AS base, pg_get_expr(c.conbin, 0) AS expr
       FROM pg_type t JOIN pg_constraint c ON c.contypid = t.oid
      WHERE t.oid = to_regtype($1) AND t.typtype = 'd' AND c.contype = 'c'`,
    [plan.target],
  );
  // A domain condition reads its value as VALUE, which parses as a column named value.
  for (const c of checks) shapes.push(`SELECT 1 FROM (SELECT NULL::${c.base} AS value) v WHERE ${c.expr}`);
  return shapes;
}

function castTask(statementIndex: number, plan: CastPlan): PreflightTask {
  const what = `ALTER COLUMN ${plan.column} TYPE ${plan.target}${plan.using ? ' USING ...' : ''} on ${plan.table}`;
  return {
    check: CHECK,
    statementIndex,
    tables: [plan.table],
    columns: [`${plan.table}.${plan.column}`],
    label: what,
    evaluates: (session) => castShapes(session, plan),
    async run(session) {
      const rel: LiveRelation = (await session.relation(plan.table))!;
      const src = await session.scan(rel, 2);
      const [col] = await session.query<{ type: string }>(
        `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1 AND attname = $2`,
        [rel.oid, plan.column],
      );
      // pg_input_is_valid (PostgreSQL 16+) answers without raising an error, for conversions that are text input.
      const u = plan.using;
      const usingCastOfColumn =
        u && nodeKind(u) === 'TypeCast' && u.TypeCast.arg?.ColumnRef?.fields?.length === 1 && u.TypeCast.arg.ColumnRef.fields[0].String?.sval === plan.column;
      if ((await session.serverVersion()) >= 160000 && TEXTUAL.test(col?.type ?? '') && (!u || usingCastOfColumn)) {
        const types = usingCastOfColumn ? [deparse({ TypeName: u.TypeCast.typeName }), plan.target] : [plan.target];
        return viaInputIsValid(session, plan, [...new Set(types)], src, what);
      }
      return viaEvaluation(session, plan, src, what);
    },
  };
}

function tasks(ctx: PreflightContext): PreflightTask[] {
  const out: PreflightTask[] = [];
  for (const cmd of ctx.subcommands) {
    if (cmd.subtype !== 'AT_AlterColumnType') continue;
    const def = cmd.def?.ColumnDef as AstNode | undefined;
    if (!def?.typeName) continue;
    // Binary-coercible changes (varchar widening...) convert nothing and cannot fail on data.
    if (!def.raw_default && ctx.facts.effect === 'catalog' && ctx.subcommands.length === 1) continue;
    const column = String(cmd.name);
    out.push(
      castTask(ctx.stmt.index, {
        table: ctx.facts.table,
        column,
        target: deparse({ TypeName: def.typeName }),
        value: def.raw_default ? deparse(def.raw_default as AstNode) : quoteIdent(column),
        using: def.raw_default as AstNode | undefined,
      }),
    );
  }
  return out;
}

export const typeCastCheck: PreflightCheck = {
  name: CHECK,
  doc: 'ALTER COLUMN ... TYPE [USING] fails when a live value does not convert; reports a sample of failing rows with the first error, evaluated without writing.',
  tasks: (ctx) => (ctx.facts.table ? tasks(ctx) : []),
};
