import { columnRefFields, unwrapCasts } from '../ast-sql';
import type { CatalogTable, LiveCatalog } from '../live-catalog';
import { fromAliases } from '../query-shape';
import { walkAst } from '../../pg/index';

export interface ResolvedColumn {
  table: CatalogTable;
  /** The alias (or table name) the FROM list uses for the table. */
  alias: string;
  column: string;
}

/** Resolves a column reference against one FROM list; undefined when ambiguous or unknown. */
export function resolveColumn(node: unknown, fromClause: unknown, catalog: LiveCatalog): ResolvedColumn | undefined {
  const fields = columnRefFields(unwrapCasts(node));
  if (!fields) return undefined;
  const aliases = fromAliases(fromClause, [...catalog.values()]);
  const column = fields[fields.length - 1]!;
  if (fields.length >= 2) {
    const alias = fields[fields.length - 2]!;
    const table = aliases.get(alias);
    return table?.columns.has(column) ? { table, alias, column } : undefined;
  }
  const owners = [...aliases.entries()].filter(([, t]) => t.columns.has(column));
  const distinct = new Set(owners.map(([, t]) => t));
  if (distinct.size !== 1) return undefined;
  // Prefer the alias actually written (a table read under an alias has both entries).
  const [alias, table] = owners[owners.length - 1]!;
  return { table, alias, column };
}

/** True when the FROM list has an outer join, which can null out NOT NULL columns. */
export function hasOuterJoin(fromClause: unknown): boolean {
  let outer = false;
  walkAst(fromClause, (v) => {
    const j = v.JoinExpr as { jointype?: string } | undefined;
    if (j && j.jointype && j.jointype !== 'JOIN_INNER') outer = true;
  });
  return outer;
}

/** The single plain table of a FROM list, with the name it goes by. */
export function singleTable(fromClause: unknown[] | undefined, catalog: LiveCatalog): { table: CatalogTable; alias: string } | undefined {
  if (fromClause?.length !== 1) return undefined;
  const rv = (fromClause[0] as { RangeVar?: { relname: string; schemaname?: string; alias?: { aliasname?: string } } }).RangeVar;
  if (!rv) return undefined;
  const table = [...catalog.values()].find((t) => t.name === rv.relname && (!rv.schemaname || t.schema === rv.schemaname));
  return table ? { table, alias: rv.alias?.aliasname ?? rv.relname } : undefined;
}
