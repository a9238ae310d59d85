import type { ColumnInfo, SequenceInfo } from '../../../introspection/schema-snapshot';
import { quoteIdent, quoteLiteral, quoteName } from '../../../pg/quote';
import { typeNameText, type AstNode } from '../../ast';
import { helperName } from '../names';

const INTEGER_TYPES: Record<string, { min: bigint; max: bigint }> = {
  smallint: { min: -32768n, max: 32767n },
  int2: { min: -32768n, max: 32767n },
  integer: { min: -2147483648n, max: 2147483647n },
  int: { min: -2147483648n, max: 2147483647n },
  int4: { min: -2147483648n, max: 2147483647n },
  bigint: { min: -9223372036854775808n, max: 9223372036854775807n },
  int8: { min: -9223372036854775808n, max: 9223372036854775807n },
};

const integerType = (name: string) => INTEGER_TYPES[name.replace(/^pg_catalog\./, '')];

/** What the swap of an identity column does to hand its sequence over: before the old column loses NOT NULL, and after the renames. */
export interface IdentityHandOver {
  /** Run before the old column's NOT NULL is dropped (an identity column keeps NOT NULL while it is one). */
  before: string[];
  /** Run at the end of the swap. */
  after: string[];
}

/**
 * The hand-over of an identity column's sequence to its shadow inside the swap, or why there is
 * none. PostgreSQL cannot move an identity sequence to another column (`OWNED BY` refuses it), so
 * the shadow becomes an identity of its own, with a helper-named sequence of the same options,
 * set to the old sequence's state (`setval` from its `last_value`, `is_called`) while the swap
 * holds the table; then the old column's identity is dropped (with its sequence) and the new
 * sequence takes the old one's name. The bounds follow what `ALTER COLUMN ... TYPE` does to an
 * identity sequence: a bound that was the old type's own default becomes the new type's.
 */
export function identityHandOver(
  column: ColumnInfo,
  sequence: SequenceInfo | undefined,
  newType: AstNode,
  table: string,
  shadow: string,
): IdentityHandOver | string {
  const name = column.name;
  if (!sequence) return `${name} is an identity column whose sequence is not in the snapshot (introspect the connection again)`;
  const oldType = integerType(sequence.data_type);
  const target = integerType(typeNameText(newType));
  if (!oldType || !target) return `${name} is an identity column, and dbops swaps an identity only between integer types`;
  if ([sequence.start, sequence.increment, sequence.min, sequence.max, sequence.cache].some((v) => v === undefined))
    return `${name} is an identity column, and the snapshot lacks its sequence's parameters (introspect the connection again)`;
  const increment = BigInt(sequence.increment!);
  const [min, max] = [BigInt(sequence.min!), BigInt(sequence.max!)];
  const defaultMin = increment > 0n ? 1n : oldType.min;
  const defaultMax = increment > 0n ? oldType.max : -1n;
  const options = [
    `SEQUENCE NAME ${quoteName(sequence.schema, helperName('dbops_new_', sequence.name))}`,
    `INCREMENT BY ${increment}`,
    ...(min !== defaultMin ? [`MINVALUE ${min}`] : []),
    ...(max !== defaultMax ? [`MAXVALUE ${max}`] : []),
    `START WITH ${sequence.start}`,
    `CACHE ${sequence.cache}`,
    sequence.cycle ? 'CYCLE' : 'NO CYCLE',
  ];
  const temp = quoteName(sequence.schema, helperName('dbops_new_', sequence.name));
  return {
    before: [
      // Proved by the validated helper CHECK (an identity column is NOT NULL): no scan.
      `ALTER TABLE ${table} ALTER COLUMN ${quoteIdent(shadow)} SET NOT NULL`,
      `ALTER TABLE ${table} ALTER COLUMN ${quoteIdent(shadow)} ADD GENERATED ${column.identity === 'always' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY (${options.join(' ')})`,
      `SELECT pg_catalog.setval(${quoteLiteral(temp)}, last_value, is_called) FROM ${quoteName(sequence.schema, sequence.name)}`,
      `ALTER TABLE ${table} ALTER COLUMN ${quoteIdent(name)} DROP IDENTITY`,
    ],
    after: [`ALTER SEQUENCE ${temp} RENAME TO ${quoteIdent(sequence.name)}`],
  };
}
