import { quoteLiteral } from '../../pg/quote';
import { type AstNode, names, nodeKind } from '../ast';
import type { PreflightSession } from './preflight-session';
import type { PreflightCheck, PreflightContext, PreflightTask, TaskOutcome } from './types';

const CHECK = 'preflight_dependents';

/** Escapes a name for a PostgreSQL regular expression. */
const reEscape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Routines (outside the system schemas) whose body mentions every one of `words` as a whole word. */
async function routinesMentioning(session: PreflightSession, words: string[]): Promise<string[]> {
  const conds = words.map((_, i) => `p.prosrc ~* $${i + 1}`).join(' AND ');
  const rows = await session.query<{ f: string }>(
    `SELECT p.oid::regprocedure::text AS f FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND ${conds}
      ORDER BY 1 LIMIT 10`,
    words.map((w) => `\\m${reEscape(w)}\\M`),
  );
  return rows.map((r) => r.f);
}

/** Views and materialized views whose rules depend on the relation (optionally one column of it). */
async function dependentViews(session: PreflightSession, oid: number, column?: string): Promise<Array<{ v: string; rel: string }>> {
  const rows = await session.query<{ v: string; rel: string }>(
    `SELECT DISTINCT v.oid::regclass::text AS v, vn.nspname || '.' || v.relname AS rel FROM pg_depend d
       JOIN pg_rewrite r ON r.oid = d.objid JOIN pg_class v ON v.oid = r.ev_class JOIN pg_namespace vn ON vn.oid = v.relnamespace
      WHERE d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass AND d.refobjid = $1 AND v.oid <> $1
        AND ($2::text IS NULL OR d.refobjsubid = (SELECT attnum FROM pg_attribute WHERE attrelid = $1 AND attname = $2))
      ORDER BY 1`,
    [oid, column ?? null],
  );
  return rows;
}

/**
 * Splits dependents found in the live catalog into those that still stand at the statement and
 * those on a table or view an earlier statement of the migration changes (it may drop the
 * constraint or the view first: the sandbox, which runs the statements in order, judges those).
 */
function standing<T extends { rel: string }>(found: T[], changedBefore: (table: string) => boolean): { still: T[]; changed: T[] } {
  return { still: found.filter((d) => !changedBefore(d.rel)), changed: found.filter((d) => changedBefore(d.rel)) };
}

const changedNote = (what: string[]): string[] =>
  what.length
    ? [`${list(what)} belong to objects the migration changes or drops before or with this statement, so the sandbox's run in order decides those`]
    : [];

const list = (xs: string[]): string => xs.join(', ');

function dropColumnTask(statementIndex: number, table: string, column: string, cascade: boolean, changedBefore: (table: string) => boolean): PreflightTask {
  const what = `DROP COLUMN ${column} on ${table}`;
  return {
    check: CHECK,
    statementIndex,
    tables: [table],
    columns: [`${table}.${column}`],
    label: what,
    // Catalog reads only.
    evaluates: async () => [],
    async run(session): Promise<TaskOutcome> {
      const rel = (await session.relation(table))!;
      const { still, changed } = standing(await dependentViews(session, rel.oid, column), changedBefore);
      const views = still.map((x) => x.v);
      const triggers = await session.query<{ t: string; f: string }>(
        `SELECT t.tgname AS t, p.oid::regprocedure::text AS f FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
          WHERE t.tgrelid = $1 AND NOT t.tgisinternal AND p.prosrc ~* $2 ORDER BY 1`,
        [rel.oid, `\\m(new|old)\\s*\\.\\s*"?${reEscape(column)}"?\\M`],
      );
      const routines = (await routinesMentioning(session, [rel.name.split('.').pop()!, column])).filter((f) => !triggers.some((t) => t.f === f));
      const problems: string[] = [];
      if (views.length && !cascade) problems.push(`view(s) ${list(views)} read the column (PostgreSQL refuses the drop without CASCADE)`);
      if (triggers.length)
        problems.push(
          `trigger(s) ${list(triggers.map((t) => `${t.t} (${t.f})`))} on the table read NEW/OLD.${column}, so every later write to ${table} would fail`,
        );
      const notes = [
        ...(views.length && cascade ? [`CASCADE also drops view(s) ${list(views)}`] : []),
        ...(routines.length ? [`function(s) ${list(routines)} mention ${column} and may still read it (they fail when called)`] : []),
        ...changedNote(changed.map((x) => `view ${x.v}`)),
      ];
      if (problems.length)
        return { status: 'failed', detail: `${what} would fail or break readers: ${problems.join('; ')}${notes.length ? `; ${notes.join('; ')}` : ''}` };
      return { status: 'passed', detail: `${what}: no view or trigger reads it${notes.length ? `; but ${notes.join('; ')}` : ''}` };
    },
  };
}

function dropTableTask(statementIndex: number, table: string, cascade: boolean, changedBefore: (table: string) => boolean): PreflightTask {
  const what = `DROP TABLE ${table}`;
  return {
    check: CHECK,
    statementIndex,
    tables: [table],
    label: what,
    // Catalog reads only.
    evaluates: async () => [],
    async run(session): Promise<TaskOutcome> {
      const rel = (await session.relation(table))!;
      const liveViews = standing(await dependentViews(session, rel.oid), changedBefore);
      const views = liveViews.still.map((x) => x.v);
      const liveFks = standing(
        await session.query<{ c: string; rel: string }>(
          `SELECT k.conrelid::regclass::text || '.' || k.conname AS c, n.nspname || '.' || t.relname AS rel
             FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE k.contype = 'f' AND k.confrelid = $1 AND k.conrelid <> $1 ORDER BY 1`,
          [rel.oid],
        ),
        changedBefore,
      );
      const fks = liveFks.still;
      const routines = await routinesMentioning(session, [rel.name.split('.').pop()!]);
      const problems: string[] = [];
      if (!cascade && views.length) problems.push(`view(s) ${list(views)} read it`);
      if (!cascade && fks.length) problems.push(`foreign key(s) ${list(fks.map((f) => f.c))} reference it`);
      const notes = [
        ...(cascade && (views.length || fks.length)
          ? [`CASCADE also drops ${list([...views.map((v) => `view ${v}`), ...fks.map((f) => `constraint ${f.c}`)])}`]
          : []),
        ...(routines.length ? [`function(s) ${list(routines)} mention it and fail when called`] : []),
        ...changedNote([...liveViews.changed.map((x) => `view ${x.v}`), ...liveFks.changed.map((f) => `constraint ${f.c}`)]),
      ];
      if (problems.length)
        return {
          status: 'failed',
          detail: `${what} would fail: ${problems.join('; ')} (PostgreSQL refuses the drop without CASCADE)${notes.length ? `; ${notes.join('; ')}` : ''}`,
        };
      return { status: 'passed', detail: `${what}: no view or foreign key depends on it${notes.length ? `; but ${notes.join('; ')}` : ''}` };
    },
  };
}

function renameEnumValueTask(statementIndex: number, type: string[], oldVal: string, newVal: string): PreflightTask {
  const what = `ALTER TYPE ${type.join('.')} RENAME VALUE ${quoteLiteral(oldVal)} TO ${quoteLiteral(newVal)}`;
  return {
    check: CHECK,
    statementIndex,
    tables: [],
    label: what,
    // Catalog reads only.
    evaluates: async () => [],
    async run(session): Promise<TaskOutcome> {
      // Views, defaults and constraints store the value by OID and follow the rename; routine bodies are text.
      const rows = await session.query<{ f: string }>(
        `SELECT p.oid::regprocedure::text AS f FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND strpos(p.prosrc, $1) > 0 ORDER BY 1 LIMIT 10`,
        [quoteLiteral(oldVal)],
      );
      return rows.length
        ? {
            status: 'failed',
            detail: `${what} breaks readers: function(s) ${list(rows.map((r) => r.f))} still use the label ${quoteLiteral(oldVal)} in their body (they fail or match nothing after the rename)`,
          }
        : { status: 'passed', detail: `${what}: no function body uses the old label (views, defaults and constraints follow the rename)` };
    },
  };
}

function tasks(ctx: PreflightContext): PreflightTask[] {
  const kind = nodeKind(ctx.stmt.stmt);
  const i = ctx.stmt.index;
  if (kind === 'AlterEnumStmt') {
    const b = ctx.stmt.stmt.AlterEnumStmt as AstNode;
    return b.oldVal ? [renameEnumValueTask(i, names(b.typeName), String(b.oldVal), String(b.newVal))] : [];
  }
  if (kind === 'DropStmt' && ctx.stmt.stmt.DropStmt.removeType === 'OBJECT_TABLE') {
    // `DROP TABLE a, b`: a foreign key from b to a goes with b.
    const dropped = new Set(ctx.facts.locks.map((l) => l.table));
    const goneWith = (table: string): boolean => dropped.has(table) || ctx.changedBefore(table);
    return ctx.facts.locks.map((l) => dropTableTask(i, l.table, ctx.facts.cascade, goneWith));
  }
  return ctx.subcommands
    .filter((c) => c.subtype === 'AT_DropColumn')
    .map((c) => dropColumnTask(i, ctx.facts.table, String(c.name), c.behavior === 'DROP_CASCADE', ctx.changedBefore));
}

export const dependentsCheck: PreflightCheck = {
  name: CHECK,
  doc: 'DROP COLUMN, DROP TABLE and enum RENAME VALUE: views, foreign keys, triggers and functions on the target that still read what goes away.',
  tasks,
};
