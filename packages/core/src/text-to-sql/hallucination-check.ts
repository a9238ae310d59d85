import type { TableInfo } from '../introspection/schema-snapshot';
import type { SqlReferences } from './sql-references';

/** Names the SQL uses that the retrieved schema context does not hold (spec section 2). */
export interface HallucinationReport {
  /** Tables as written (`orders` or `sales.orders`). */
  hallucinated_tables: string[];
  /** `table.column`, with the alias resolved to the table's name. */
  hallucinated_columns: string[];
}

/** Columns every table has without declaring them. */
const SYSTEM_COLUMNS = new Set(['ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid']);

/** `name` as PostgreSQL's search_path would find it among the context tables: public first. */
function findTable(context: readonly TableInfo[], schema: string | null, name: string): TableInfo | undefined {
  if (schema !== null) return context.find((t) => t.schema === schema && t.name === name);
  return context.find((t) => t.schema === 'public' && t.name === name) ?? context.find((t) => t.name === name);
}

const written = (schema: string | null, name: string): string => (schema ? `${schema}.${name}` : name);

/**
 * Step 5 of the pipeline: every table of the SQL and every qualified column reference must be
 * in the retrieved context. CTE names are not tables; columns of CTEs and of sub-selects in
 * FROM are derived and not checked; unqualified columns are left to PostgreSQL (the spec
 * checks qualified references only).
 */
export function checkReferences(refs: SqlReferences, context: readonly TableInfo[]): HallucinationReport {
  const tables = new Set<string>();
  const columns = new Set<string>();
  /** alias or bare name -> the context tables it may stand for (null: hallucinated table). */
  const scope = new Map<string, Array<TableInfo | null>>();
  const bind = (key: string, t: TableInfo | null): void => {
    scope.set(key, [...(scope.get(key) ?? []), t]);
  };

  for (const r of refs.tables) {
    if (r.schema === null && refs.cteNames.has(r.name)) continue;
    const t = findTable(context, r.schema, r.name) ?? null;
    if (!t) tables.add(written(r.schema, r.name));
    if (r.alias) bind(r.alias, t);
    else {
      bind(r.name, t);
      if (r.schema) bind(`${r.schema}.${r.name}`, t);
    }
  }

  for (const c of refs.columns) {
    if (c.column === '*' || SYSTEM_COLUMNS.has(c.column)) continue;
    const bound = scope.get(c.qualifier);
    let candidates: Array<TableInfo | null>;
    if (bound) candidates = bound;
    else if (refs.cteNames.has(c.qualifier) || refs.derivedAliases.has(c.qualifier)) continue;
    else {
      // A qualifier that names nothing in FROM: judge the column against the table it names, if any.
      const parts = c.qualifier.split('.');
      const t = parts.length >= 2 ? findTable(context, parts[parts.length - 2]!, parts[parts.length - 1]!) : findTable(context, null, c.qualifier);
      if (!t) {
        columns.add(`${c.qualifier}.${c.column}`);
        continue;
      }
      candidates = [t];
    }
    if (candidates.some((t) => t === null)) continue; // the table itself is already reported
    if (!candidates.some((t) => t!.columns.some((col) => col.name === c.column))) {
      columns.add(`${candidates[0]!.name}.${c.column}`);
    }
  }
  return { hallucinated_tables: [...tables], hallucinated_columns: [...columns] };
}
