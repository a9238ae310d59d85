import { quoteIdent } from '../pg/quote';
import type { Queryable } from '../store/store';

/**
 * What a statement leaves in the catalog, in a form that can be looked up later: so that after
 * a lost executor the request record says what is really in the database, not what the
 * executor's counter last recorded. Only statements whose effect one catalog look-up proves are
 * modelled; every other statement is `unknown` (the record says so rather than guess).
 */
export type CatalogEffect =
  | { kind: 'relation'; name: string; present: boolean }
  | { kind: 'index'; name: string; present: boolean }
  | { kind: 'column'; relation: string; column: string; present: boolean }
  | { kind: 'constraint'; relation: string; constraint: string; present: boolean };

/** What a look-up found: `invalid` is an index that exists but is not valid (a broken CREATE INDEX CONCURRENTLY). */
export type Observed = 'present' | 'absent' | 'invalid';

type Node = Record<string, unknown>;

/** `schema.name` quoted as the statement names it (unqualified stays unqualified: the session's search_path resolves it the same way). */
const rangeVarName = (rv: Node | undefined): string | null => {
  if (!rv || typeof rv.relname !== 'string') return null;
  return typeof rv.schemaname === 'string' ? `${quoteIdent(rv.schemaname)}.${quoteIdent(rv.relname)}` : quoteIdent(rv.relname);
};

/** An index is created in its table's schema. */
const indexName = (table: Node | undefined, index: string): string =>
  typeof table?.schemaname === 'string' ? `${quoteIdent(table.schemaname)}.${quoteIdent(index)}` : quoteIdent(index);

const stringsOf = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((v) => ((v as Node).String as Node | undefined)?.sval).filter((s): s is string => typeof s === 'string') : [];

/** The effects of one parsed statement, or null when its effect cannot be read from the catalog. */
export function effectsOf(nodeType: string, node: Node): CatalogEffect[] | null {
  switch (nodeType) {
    case 'CreateStmt': {
      const name = rangeVarName(node.relation as Node);
      return name ? [{ kind: 'relation', name, present: true }] : null;
    }
    case 'IndexStmt': {
      if (typeof node.idxname !== 'string') return null;
      return [{ kind: 'index', name: indexName(node.relation as Node, node.idxname), present: true }];
    }
    case 'AlterTableStmt': {
      const relation = rangeVarName(node.relation as Node);
      const cmds = Array.isArray(node.cmds) ? (node.cmds as Node[]).map((c) => c.AlterTableCmd as Node) : [];
      if (!relation || cmds.length === 0) return null;
      const out: CatalogEffect[] = [];
      for (const cmd of cmds) {
        const def = cmd.def as Node | undefined;
        if (cmd.subtype === 'AT_AddColumn') {
          const column = (def?.ColumnDef as Node | undefined)?.colname;
          if (typeof column !== 'string') return null;
          out.push({ kind: 'column', relation, column, present: true });
        } else if (cmd.subtype === 'AT_DropColumn' && typeof cmd.name === 'string') {
          out.push({ kind: 'column', relation, column: cmd.name, present: false });
        } else if (cmd.subtype === 'AT_AddConstraint' && typeof (def?.Constraint as Node | undefined)?.conname === 'string') {
          out.push({ kind: 'constraint', relation, constraint: (def!.Constraint as Node).conname as string, present: true });
        } else {
          return null;
        }
      }
      return out;
    }
    case 'DropStmt': {
      const kind = node.removeType === 'OBJECT_TABLE' ? 'relation' : node.removeType === 'OBJECT_INDEX' ? 'index' : null;
      if (!kind || !Array.isArray(node.objects)) return null;
      const out: CatalogEffect[] = [];
      for (const o of node.objects as Node[]) {
        const parts = stringsOf((o.List as Node | undefined)?.items);
        if (parts.length === 0 || parts.length > 2) return null;
        out.push({ kind, name: parts.map(quoteIdent).join('.'), present: false });
      }
      return out;
    }
    default:
      return null;
  }
}

/** Looks every effect up in the database's catalog, in one query. */
export async function observe(db: Queryable, effects: readonly CatalogEffect[]): Promise<Observed[]> {
  if (effects.length === 0) return [];
  const res = await db.query<{ i: number; state: Observed }>(
    `SELECT e.i, CASE
        WHEN e.kind IN ('relation', 'index') THEN
          CASE WHEN to_regclass(e.name) IS NULL THEN 'absent'
               WHEN e.kind = 'index' AND NOT COALESCE((SELECT indisvalid FROM pg_catalog.pg_index WHERE indexrelid = to_regclass(e.name)), true) THEN 'invalid'
               ELSE 'present' END
        WHEN e.kind = 'column' THEN
          CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = to_regclass(e.name) AND attname = e.part AND attnum > 0 AND NOT attisdropped) THEN 'present' ELSE 'absent' END
        ELSE
          CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_constraint WHERE conrelid = to_regclass(e.name) AND conname = e.part) THEN 'present' ELSE 'absent' END
      END AS state
      FROM jsonb_to_recordset($1::jsonb) AS e(i int, kind text, name text, part text)
      ORDER BY e.i`,
    [
      JSON.stringify(
        effects.map((e, i) => ({
          i,
          kind: e.kind,
          name: e.kind === 'column' || e.kind === 'constraint' ? e.relation : e.name,
          part: e.kind === 'column' ? e.column : e.kind === 'constraint' ? e.constraint : null,
        })),
      ),
    ],
  );
  return res.rows.map((r) => r.state);
}

/** Human words for an effect and what was found, for the record's evidence. */
export function describe(effect: CatalogEffect, found: Observed): string {
  const what =
    effect.kind === 'column'
      ? `column ${effect.column} of ${effect.relation}`
      : effect.kind === 'constraint'
        ? `constraint ${effect.constraint} on ${effect.relation}`
        : `${effect.kind === 'index' ? 'index' : 'table'} ${effect.name}`;
  return found === 'invalid' ? `${what} exists but is INVALID` : `${what} ${found === 'present' ? 'exists' : 'does not exist'}`;
}
