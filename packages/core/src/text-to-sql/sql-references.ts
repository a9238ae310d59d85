/** A parse-tree node as libpg-query gives it: `{ NodeType: { ...fields } }`. */
type Node = Record<string, unknown>;

/** A relation named in a FROM clause (or a join), as written. */
export interface TableReference {
  schema: string | null;
  name: string;
  alias: string | null;
}

/** A qualified column reference `qualifier.column` (or `schema.table.column`), as written. */
export interface ColumnReference {
  /** `table`, `alias` or `schema.table`. */
  qualifier: string;
  column: string;
}

/** The names a statement uses, for the hallucination check. */
export interface SqlReferences {
  tables: TableReference[];
  columns: ColumnReference[];
  /** Names of CTEs: not tables, and their columns are not checked. */
  cteNames: Set<string>;
  /** Aliases of sub-selects and function calls in FROM: their columns are derived, not checked. */
  derivedAliases: Set<string>;
}

const str = (n: unknown): string | null => {
  const s = (n as { String?: { sval?: string } } | undefined)?.String?.sval;
  return typeof s === 'string' ? s : null;
};

/**
 * Collects every relation, CTE name, derived alias and qualified column reference of a parse
 * tree from libpg-query, at any depth (sub-selects, CTE bodies, join conditions, HAVING...).
 * Aliases are collected per statement rather than per scope: a generated query reusing one
 * alias for two tables is rare, and then both tables are accepted for it.
 */
export function collectReferences(tree: unknown): SqlReferences {
  const refs: SqlReferences = { tables: [], columns: [], cteNames: new Set(), derivedAliases: new Set() };
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) visit(v);
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value as Node)) {
      const node = v as Node;
      if (key === 'RangeVar') {
        const alias = (node.alias as { aliasname?: string } | undefined)?.aliasname ?? null;
        refs.tables.push({ schema: (node.schemaname as string | undefined) ?? null, name: node.relname as string, alias });
      } else if (key === 'CommonTableExpr') {
        refs.cteNames.add(node.ctename as string);
      } else if (key === 'RangeSubselect' || key === 'RangeFunction') {
        const alias = (node.alias as { aliasname?: string } | undefined)?.aliasname;
        if (alias) refs.derivedAliases.add(alias);
      } else if (key === 'ColumnRef') {
        const fields = (node.fields as unknown[] | undefined) ?? [];
        const names = fields.map(str);
        // A_Star (`t.*`) ends in a non-string field: only the qualifier is checked then.
        if (names.length >= 2 && names.slice(0, -1).every((n) => n !== null)) {
          const last = names[names.length - 1];
          const qualifier = (names.slice(0, -1) as string[]).join('.');
          refs.columns.push({ qualifier, column: last ?? '*' });
        }
      }
      visit(v);
    }
  };
  visit(tree);
  return refs;
}
