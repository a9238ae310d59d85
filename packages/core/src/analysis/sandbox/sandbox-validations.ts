import { names, nodeBody, nodeKind, rangeVarName } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import { quoteLiteral, quoteQualified } from '../../pg/quote';
import type { StatementFacts } from '../statement-facts';
import type { ValidationResult } from '../types';
import { opaqueWriters } from './opaque-writers';
import type { SandboxSession } from './sandbox-session';

/** Which objects must exist (or be gone) after the migration, derived from its statements. */
export function expectedObjects(
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
): { relation: string; column?: string; exists: boolean; why: string }[] {
  const out: { relation: string; column?: string; exists: boolean; why: string }[] = [];
  for (const p of parsed) {
    const f = facts[p.index]!;
    const b = nodeBody(p.stmt);
    const kind = nodeKind(p.stmt);
    const why = `statement ${p.index} (${f.statement_type})`;
    if (kind === 'CreateStmt' || kind === 'ViewStmt' || kind === 'CreateTableAsStmt') out.push({ relation: f.table, exists: true, why });
    if (kind === 'IndexStmt' && b.idxname) out.push({ relation: `${b.relation?.schemaname ?? 'public'}.${b.idxname}`, exists: true, why });
    if (f.statement_type === 'DROP_TABLE') {
      for (const l of f.locks) {
        // Columns of a table dropped later are gone with it: no longer expected.
        for (let k = out.length - 1; k >= 0; k--) if (out[k]!.relation === l.table && out[k]!.column) out.splice(k, 1);
        out.push({ relation: l.table, exists: false, why });
      }
    }
    if (kind === 'AlterTableStmt') {
      const schema = f.table.slice(0, f.table.indexOf('.'));
      for (const c of f.subcommands) {
        if (c.subtype === 'AT_AddColumn') out.push({ relation: f.table, column: String(c.def?.ColumnDef?.colname), exists: true, why });
        if (c.subtype === 'AT_DropColumn') out.push({ relation: f.table, column: String(c.name), exists: false, why });
        // ADD CONSTRAINT ... USING INDEX renames the index to the constraint's name.
        const con = c.subtype === 'AT_AddConstraint' ? c.def?.Constraint : undefined;
        if (con?.indexname && con.conname && con.conname !== con.indexname) {
          out.push({ relation: `${schema}.${con.indexname}`, exists: false, why });
          out.push({ relation: `${schema}.${con.conname}`, exists: true, why });
        }
      }
    }
    if (kind === 'RenameStmt' && b.renameType === 'OBJECT_INDEX') {
      const from = rangeVarName(b.relation);
      out.push({ relation: from, exists: false, why });
      out.push({ relation: `${from.slice(0, from.indexOf('.'))}.${b.newname}`, exists: true, why });
    }
    if (kind === 'RenameStmt' && b.renameType === 'OBJECT_COLUMN') {
      out.push({ relation: rangeVarName(b.relation), column: String(b.newname), exists: true, why });
      out.push({ relation: rangeVarName(b.relation), column: String(b.subname), exists: false, why });
    }
    if (kind === 'RenameStmt' && b.renameType === 'OBJECT_TABLE') {
      const from = rangeVarName(b.relation);
      const to = `${from.split('.')[0]}.${b.newname}`;
      // What earlier statements expect of the table, they now expect under its new name.
      for (const e of out) if (e.relation === from) e.relation = to;
      out.push({ relation: to, exists: true, why });
    }
    if (kind === 'DropStmt' && b.removeType === 'OBJECT_INDEX') {
      const o = ((b.objects ?? []) as { List?: { items: unknown[] } }[])[0];
      const parts = names(o?.List?.items as never);
      out.push({ relation: parts.length > 1 ? parts.join('.') : `public.${parts[0]}`, exists: false, why });
    }
  }
  // Later statements win (an object created then dropped is expected gone).
  const last = new Map<string, (typeof out)[number]>();
  for (const e of out) last.set(`${e.relation}|${e.column ?? ''}`, e);
  return [...last.values()];
}

/**
 * Whether each relation (or column, when given) exists, in one catalog query for all of them:
 * a migration of 100 statements would otherwise cost 100 calls into PGlite (or round trips).
 */
async function objectsPresent(db: SandboxSession, objects: readonly { relation: string; column?: string }[]): Promise<boolean[]> {
  if (!objects.length) return [];
  const rows = objects.map((e, k) => {
    const dot = e.relation.indexOf('.');
    return `(${k}, ${quoteLiteral(e.relation.slice(0, dot))}, ${quoteLiteral(e.relation.slice(dot + 1))}, ${e.column ? quoteLiteral(e.column) : 'NULL'})`;
  });
  const sql = `SELECT e.k, CASE WHEN e.col IS NULL
      THEN EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = e.s AND c.relname = e.r)
      ELSE EXISTS (SELECT 1 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = e.s AND c.relname = e.r AND a.attname = e.col AND NOT a.attisdropped)
    END AS present
    FROM (VALUES ${rows.join(', ')}) AS e(k, s, r, col)`;
  const out: boolean[] = objects.map(() => false);
  for (const r of (await db.query<{ k: number; present: boolean }>(sql)).rows) out[r.k] = r.present;
  return out;
}

/** Tables renamed by the migration: original `schema.name` -> final `schema.name` (renames chained). */
function tableRenames(parsed: readonly ParsedStatement[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of parsed) {
    const b = nodeBody(p.stmt);
    if (nodeKind(p.stmt) !== 'RenameStmt' || b.renameType !== 'OBJECT_TABLE') continue;
    const from = rangeVarName(b.relation);
    const to = `${from.split('.')[0]}.${b.newname}`;
    for (const [k, v] of out) if (v === from) out.set(k, to);
    if (![...out.values()].includes(to)) out.set(from, to);
  }
  return out;
}

/** Checks run in the sandbox after the migration applied. */
export async function runValidations(
  db: SandboxSession,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  countsBefore: ReadonlyMap<string, number>,
  dataChanged: ReadonlySet<string>,
  /** Tables written as found before the migration (partitions of a table it drops), taken as they are. */
  writtenBefore: ReadonlySet<string> = new Set(),
): Promise<ValidationResult[]> {
  const results: ValidationResult[] = [];
  const expected = expectedObjects(parsed, facts);
  const found = await objectsPresent(db, expected);
  expected.forEach((e, k) => {
    const present = found[k]!;
    const target = e.column ? `column ${e.relation}.${e.column}` : e.relation;
    results.push({
      check: e.exists ? 'object_exists' : 'object_removed',
      passed: present === e.exists,
      detail: `${target} ${e.exists ? 'exists' : 'is gone'} after ${e.why}${present === e.exists ? '' : ': NOT as expected'}`,
    });
  });
  const written = await withInheritance(db, dataChanged);
  for (const t of writtenBefore) written.add(t);
  const kept = [...countsBefore].filter(([t]) => !written.has(t));
  if (kept.length) {
    // A table the migration renamed is counted under its new name.
    const renamed = tableRenames(parsed);
    const now = (t: string): string => renamed.get(t) ?? t;
    const after = await rowCounts(
      db,
      kept.map(([t]) => now(t)),
    );
    const changed = kept.filter(([t, n]) => after.get(now(t)) !== n);
    const counts = changed.map(([t, n]) => `${t} ${n} -> ${after.get(now(t)) ?? 'missing'}`).join(', ');
    // Code the statements' text does not show (a DO block, a trigger) may write any table: what it
    // changed is the migration's doing, so it is reported, not refused.
    const code = changed.length ? await opaqueWriters(db, parsed, facts) : [];
    results.push({
      check: 'row_counts_kept',
      passed: changed.length === 0 || code.length > 0,
      detail: !changed.length
        ? `${kept.length} table(s) the migration does not delete from kept their synthetic rows`
        : code.length
          ? `row counts changed: ${counts}, by code the analysis does not see into (${code.slice(0, 3).join('; ')}${code.length > 3 ? `; ${code.length - 3} more` : ''})`
          : `row counts changed unexpectedly: ${counts}`,
    });
  }
  // A partitioned index (relkind I) is invalid by design until every partition has an index
  // attached to it (CREATE INDEX ... ON ONLY, then one ALTER INDEX ... ATTACH PARTITION per
  // partition): PostgreSQL accepts that state, so it is reported, not refused. An invalid index
  // of a table is a build that did not finish.
  const invalid = (
    await db.query<{ name: string; partitioned: boolean }>(
      `SELECT c.relname AS name, c.relkind = 'I' AS partitioned FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE NOT i.indisvalid`,
    )
  ).rows;
  const broken = invalid.filter((r) => !r.partitioned).map((r) => r.name);
  const pending = invalid.filter((r) => r.partitioned).map((r) => r.name);
  const waiting = pending.length
    ? `partitioned index(es) not valid until every partition has an attached index (as PostgreSQL leaves CREATE INDEX ... ON ONLY): ${pending.join(', ')}`
    : '';
  results.push({
    check: 'indexes_valid',
    passed: broken.length === 0,
    detail: broken.length
      ? `invalid indexes: ${broken.join(', ')}${waiting ? `; ${waiting}` : ''}`
      : waiting
        ? `all indexes of tables are valid; ${waiting}`
        : 'all indexes are valid',
  });
  return results;
}

/**
 * The tables whose rows a write to `tables` reaches through partitioning or inheritance: an
 * INSERT into a partitioned table lands in a partition, a DELETE without ONLY reaches the
 * children, and a parent counts its children's rows. So the partitions (and children) of each
 * table, and its parents, up and down the tree.
 */
export async function withInheritance(db: SandboxSession, tables: ReadonlySet<string>): Promise<Set<string>> {
  const out = new Set(tables);
  if (!tables.size) return out;
  const { rows } = await db.query<{ t: string }>(
    `WITH RECURSIVE named AS (
       SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname || '.' || c.relname = ANY($1)),
     down AS (SELECT oid FROM named UNION SELECT i.inhrelid FROM pg_inherits i JOIN down d ON i.inhparent = d.oid),
     up AS (SELECT oid FROM named UNION SELECT i.inhparent FROM pg_inherits i JOIN up u ON i.inhrelid = u.oid)
     SELECT n.nspname || '.' || c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.oid IN (SELECT oid FROM down UNION SELECT oid FROM up)`,
    [[...tables]],
  );
  for (const { t } of rows) out.add(t);
  return out;
}

/** Row counts of existing tables (missing ones are left out). */
export async function rowCounts(db: SandboxSession, tables: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!tables.length) return out;
  const present = (
    await db.query<{ t: string }>(
      `SELECT n.nspname || '.' || c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r','p') AND n.nspname || '.' || c.relname = ANY($1)`,
      [tables],
    )
  ).rows.map((r) => r.t);
  if (!present.length) return out;
  const sql = present.map((t, k) => `SELECT ${k} AS k, count(*)::int AS n FROM ${quoteQualified(t)}`).join(' UNION ALL ');
  for (const r of (await db.query<{ k: number; n: number }>(sql)).rows) out.set(present[r.k]!, r.n);
  return out;
}
