import { type AstNode, names } from '../ast';
import type { SchemaIndex } from '../schema-index';
import { quoteIdent, quoteLiteral, quoteQualified } from '../../pg/quote';

/**
 * Why `ALTER TYPE ... ADD VALUE` has no automatic undo, and the procedure that undoes it by hand,
 * written out for this type from the snapshot: its labels before the migration and the columns
 * that use it.
 */
export function enumValueManualUndo(b: AstNode, schema: SchemaIndex): string {
  const parts = names(b.typeName);
  const type = parts.length > 1 ? parts.join('.') : `${schema.searchPath[0] ?? 'public'}.${parts[0]}`;
  const value = String(b.newVal);
  const e = schema.snapshot.enums.find((x) => `${x.schema}.${x.name}` === type);
  const head = `PostgreSQL cannot remove a value from an enum, so ADD VALUE ${quoteLiteral(value)} cannot be undone automatically`;
  if (!e)
    return `${head}. By hand: make sure no row uses ${quoteLiteral(value)}, create the type anew without it, move the columns to it and drop the old type.`;
  const using = schema.snapshot.tables
    .filter((t) => t.kind === 'table' || t.kind === 'partitioned_table')
    .flatMap((t) => t.columns.filter((c) => c.udt_name === e.name).map((c) => ({ t: `${t.schema}.${t.name}`, c: c.name })));
  const tmp = quoteQualified(`${e.schema}.${e.name}_old`);
  const steps = [
    `CREATE TYPE ${tmp} AS ENUM (${e.values.map(quoteLiteral).join(', ')})`,
    ...using.map((u) => `ALTER TABLE ${quoteQualified(u.t)} ALTER COLUMN ${quoteIdent(u.c)} TYPE ${tmp} USING ${quoteIdent(u.c)}::text::${tmp}`),
    `DROP TYPE ${quoteQualified(type)}`,
    `ALTER TYPE ${tmp} RENAME TO ${quoteIdent(e.name)}`,
  ];
  return `${head}. By hand, once no row uses ${quoteLiteral(value)} (column defaults, views and functions that use the type may need the same treatment): ${steps.join('; ')}`;
}
