import { deparse } from '../../pg/deparse';
import { parseTreeSync } from '../../pg/parser';
import type { AstNode } from '../ast';

/** A partition key column of the parent: its SQL (quoted name) and `format_type` text. */
export interface PartitionKey {
  sql: string;
  type: string;
}

const word = (d: AstNode): string | null => {
  const f = d.ColumnRef?.fields as AstNode[] | undefined;
  const s = f?.length === 1 ? String(f[0]!.String?.sval ?? '') : '';
  return s === 'minvalue' || s === 'maxvalue' ? s : null;
};

const typed = (d: AstNode, k: PartitionKey): string => `(${deparse(d)})::${k.type}`;
const row = (xs: string[]): string => `ROW(${xs.join(', ')})`;

/** `ROW(keys) op ROW(datums)` over the datums before the first MINVALUE/MAXVALUE, and that terminator. */
function prefix(datums: AstNode[], keys: PartitionKey[]): { keys: string[]; values: string[]; stop: string | null } {
  const out = { keys: [] as string[], values: [] as string[], stop: null as string | null };
  for (let i = 0; i < datums.length; i++) {
    const w = word(datums[i]!);
    if (w) {
      out.stop = w;
      break;
    }
    out.keys.push(keys[i]!.sql);
    out.values.push(typed(datums[i]!, keys[i]!));
  }
  return out;
}

/**
 * The condition a row's key must meet to belong in a partition with this bound, written over
 * `keys` (column references for rows; typed values to test a point), as PostgreSQL's own
 * partition constraint: range keys are compared as rows with MINVALUE/MAXVALUE open ends and
 * are never NULL, list keys are IN the list (or NULL when the list has NULL), hash keys go
 * through `satisfies_hash_partition`. Null for a DEFAULT partition (its condition depends on
 * the other partitions).
 */
export function boundCondition(bound: AstNode, keys: PartitionKey[], parentOid: number): string | null {
  if (bound.is_default) return null;
  if (bound.strategy === 'h')
    return `satisfies_hash_partition(${parentOid}::oid, ${Number(bound.modulus)}, ${Number(bound.remainder ?? 0)}, ${keys.map((k) => k.sql).join(', ')})`;
  if (bound.strategy === 'l') {
    const datums = (bound.listdatums ?? []) as AstNode[];
    const hasNull = datums.some((d) => d.A_Const?.isnull);
    const values = datums.filter((d) => !d.A_Const?.isnull).map((d) => typed(d, keys[0]!));
    const parts = [...(values.length ? [`${keys[0]!.sql} IN (${values.join(', ')})`] : []), ...(hasNull ? [`${keys[0]!.sql} IS NULL`] : [])];
    return parts.length ? `(${parts.join(' OR ')})` : 'false';
  }
  const conds = keys.map((k) => `${k.sql} IS NOT NULL`);
  const lo = prefix((bound.lowerdatums ?? []) as AstNode[], keys);
  if (lo.keys.length) conds.push(`${row(lo.keys)} ${lo.stop === 'maxvalue' ? '>' : '>='} ${row(lo.values)}`);
  else if (lo.stop === 'maxvalue') conds.push('false');
  const hi = prefix((bound.upperdatums ?? []) as AstNode[], keys);
  if (hi.keys.length) conds.push(`${row(hi.keys)} ${hi.stop === 'maxvalue' ? '<=' : '<'} ${row(hi.values)}`);
  else if (hi.stop === 'minvalue') conds.push('false');
  return conds.join(' AND ');
}

/** Points of a bound to test against another partition: a range's lower end (when it has no MINVALUE), list values. */
export function boundPoints(bound: AstNode, keys: PartitionKey[]): string[][] {
  if (bound.strategy === 'r') {
    const datums = (bound.lowerdatums ?? []) as AstNode[];
    return datums.some((d) => word(d)) ? [] : [datums.map((d, i) => typed(d, keys[i]!))];
  }
  if (bound.strategy === 'l') return ((bound.listdatums ?? []) as AstNode[]).map((d) => [d.A_Const?.isnull ? 'NULL' : typed(d, keys[0]!)]);
  return [];
}

/** The PartitionBoundSpec of `pg_get_expr(relpartbound, oid)` text, read through the parser. */
export function parseBound(text: string): AstNode | null {
  const tree = parseTreeSync(`CREATE TABLE x PARTITION OF y ${text}`);
  return (tree.stmts[0]?.stmt.CreateStmt?.partbound as AstNode | undefined) ?? null;
}

/** Two hash bounds overlap when the larger modulus's remainder falls on the smaller's (moduli divide each other). */
export function hashOverlap(a: AstNode, b: AstNode): boolean {
  const [small, large] = Number(a.modulus) <= Number(b.modulus) ? [a, b] : [b, a];
  return Number(large.remainder ?? 0) % Number(small.modulus) === Number(small.remainder ?? 0);
}
