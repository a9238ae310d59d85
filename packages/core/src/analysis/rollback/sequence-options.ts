import { type AstNode, rangeVarName } from '../ast';
import type { SchemaIndex } from '../schema-index';
import type { SequenceInfo } from '../../introspection/schema-snapshot';
import { quoteIdent, quoteQualified } from '../../pg/quote';
import type { Inverse } from './restore-definitions';

/** The snapshot's sequence a (possibly unqualified) name resolves to along the search path. */
function sequenceOf(schema: SchemaIndex, name: string): SequenceInfo | undefined {
  const [first, second] = name.split('.');
  const candidates = second === undefined ? schema.searchPath.map((s) => ({ schema: s, name: first! })) : [{ schema: first!, name: second }];
  for (const c of candidates) {
    const found = schema.snapshot.sequences.find((s) => s.schema === c.schema && s.name === c.name);
    if (found) return found;
  }
  return undefined;
}

/** Options of ALTER SEQUENCE that change what the schema holds (the position is data, not schema). */
const SHAPE_OPTIONS = new Set(['as', 'start', 'increment', 'minvalue', 'maxvalue', 'cache', 'cycle', 'owned_by']);

/**
 * The undo of `ALTER SEQUENCE`: the sequence's parameters as the snapshot holds them (`AS`, start,
 * increment, bounds, cache, cycle, owner), all in one statement so a type narrowed back to
 * `integer` gets its bounds in the same step. `RESTART` and `SET LOGGED` move no schema object;
 * the position is not put back (it is data: say so). A sequence the snapshot lacks was created by
 * the migration or is unknown: `createdHere` tells which.
 */
export function inverseAlterSequence(b: AstNode, schema: SchemaIndex, createdHere: boolean): Inverse {
  const name = rangeVarName(b.sequence);
  const options = ((b.options ?? []) as AstNode[]).map((o) => o.DefElem as AstNode).filter(Boolean);
  const changed = options.map((o) => String(o.defname));
  if (createdHere) return { sql: '-- nothing to undo: the sequence is created by this migration, and its undo drops it', reversible: true, warning: null };
  const seq = sequenceOf(schema, name);
  if (!seq || seq.start === undefined || seq.max === undefined || seq.min === undefined)
    return { sql: null, reversible: false, warning: `the previous parameters of sequence ${name} are not in the snapshot; set them back by hand` };
  const positionOnly = changed.every((d) => !SHAPE_OPTIONS.has(d));
  const moves = changed.some((d) => d === 'restart');
  const warning = moves ? `the sequence's position (RESTART) is data and is not put back` : null;
  if (positionOnly) return { sql: '-- nothing to undo in the schema', reversible: !moves, warning };
  const owner = seq.owner ? `${quoteQualified(`${seq.owner.schema}.${seq.owner.table}`)}.${quoteIdent(seq.owner.column)}` : 'NONE';
  const parts = [
    `AS ${seq.data_type}`,
    `INCREMENT BY ${seq.increment ?? '1'}`,
    `MINVALUE ${seq.min}`,
    `MAXVALUE ${seq.max}`,
    `START WITH ${seq.start}`,
    `CACHE ${seq.cache ?? '1'}`,
    seq.cycle ? 'CYCLE' : 'NO CYCLE',
    ...(changed.includes('owned_by') ? [`OWNED BY ${owner}`] : []),
  ];
  return { sql: `ALTER SEQUENCE ${quoteQualified(`${seq.schema}.${seq.name}`)} ${parts.join(' ')}`, reversible: true, warning };
}
