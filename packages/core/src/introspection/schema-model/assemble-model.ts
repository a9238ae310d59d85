import type { CommentRow } from '../queries/comments';
import type { CompositeTypeRow } from '../queries/composite-types';
import type { DependencyRow } from '../queries/dependencies';
import type { DomainRow } from '../queries/domains';
import type { PolicyRow } from '../queries/policies';
import type { RangeTypeRow } from '../queries/range-types';
import type { RoutineRow } from '../queries/routines';
import type { RuleRow } from '../queries/rules';
import type { SchemaRow } from '../queries/schemas';
import type { StatisticsRow } from '../queries/statistics';
import type { UncapturedRow } from '../queries/uncaptured';
import type { TriggerRow } from '../queries/triggers';
import { quoteLiteral } from '../../pg/quote';
import { qname } from './names';
import { objectId, type PolicyInfo, type RoutineInfo, type SchemaModel, type TypeInfo } from './schema-model';

/** Rows of the model's catalog queries, by name. */
export interface ModelRows {
  schemas: readonly SchemaRow[];
  domains: readonly DomainRow[];
  composites: readonly CompositeTypeRow[];
  ranges: readonly RangeTypeRow[];
  routines: readonly RoutineRow[];
  triggers: readonly TriggerRow[];
  rules: readonly RuleRow[];
  policies: readonly PolicyRow[];
  comments: readonly CommentRow[];
  dependencies: readonly DependencyRow[];
  statistics: readonly StatisticsRow[];
  uncaptured: readonly UncapturedRow[];
}

/** A collation or operator class as SQL, when the catalogs named one. */
const qualified = (schema: string | null, name: string | null): string | null => (schema !== null && name !== null ? qname(schema, name) : null);

const COMMANDS: Record<PolicyRow['command'], PolicyInfo['command']> = { r: 'SELECT', a: 'INSERT', w: 'UPDATE', d: 'DELETE', '*': 'ALL' };
const MODIFY = { r: 'READ_ONLY', s: 'SHAREABLE', w: 'READ_WRITE' } as const;
const PARALLEL = { s: 'SAFE', r: 'RESTRICTED', u: 'UNSAFE' } as const;

/** CREATE AGGREGATE from the fields of pg_aggregate, with only what differs from the defaults. */
function aggregateSql(r: RoutineRow): string {
  const a = r.agg!;
  const opts: string[] = [`SFUNC = ${a.sfunc}`, `STYPE = ${a.stype}`];
  if (a.sspace) opts.push(`SSPACE = ${a.sspace}`);
  if (a.finalfunc) opts.push(`FINALFUNC = ${a.finalfunc}`);
  if (a.finalfunc_extra) opts.push('FINALFUNC_EXTRA');
  // Defaults: READ_ONLY for normal aggregates, READ_WRITE for ordered-set ones.
  if (a.finalfunc && a.finalfunc_modify !== (a.kind === 'n' ? 'r' : 'w')) opts.push(`FINALFUNC_MODIFY = ${MODIFY[a.finalfunc_modify]}`);
  if (a.combinefunc) opts.push(`COMBINEFUNC = ${a.combinefunc}`);
  if (a.serialfunc) opts.push(`SERIALFUNC = ${a.serialfunc}`);
  if (a.deserialfunc) opts.push(`DESERIALFUNC = ${a.deserialfunc}`);
  if (a.initcond !== null) opts.push(`INITCOND = ${quoteLiteral(a.initcond)}`);
  if (a.msfunc) opts.push(`MSFUNC = ${a.msfunc}`);
  if (a.minvfunc) opts.push(`MINVFUNC = ${a.minvfunc}`);
  if (a.mstype) opts.push(`MSTYPE = ${a.mstype}`);
  if (a.msspace) opts.push(`MSSPACE = ${a.msspace}`);
  if (a.mfinalfunc) opts.push(`MFINALFUNC = ${a.mfinalfunc}`);
  if (a.mfinalfunc_extra) opts.push('MFINALFUNC_EXTRA');
  if (a.mfinalfunc && a.mfinalfunc_modify !== 'r') opts.push(`MFINALFUNC_MODIFY = ${MODIFY[a.mfinalfunc_modify]}`);
  if (a.minitcond !== null) opts.push(`MINITCOND = ${quoteLiteral(a.minitcond)}`);
  if (a.sortop) opts.push(`SORTOP = OPERATOR(${a.sortop.replace(/\(.*$/, '')})`);
  if (a.parallel !== 'u') opts.push(`PARALLEL = ${PARALLEL[a.parallel]}`);
  if (a.kind === 'h') opts.push('HYPOTHETICAL');
  const args = r.arguments ? r.arguments : '*';
  return `CREATE AGGREGATE ${qname(r.schema, r.name)}(${args}) (\n  ${opts.join(',\n  ')}\n)`;
}

const ROUTINE_KINDS: Record<RoutineRow['prokind'], RoutineInfo['kind']> = { f: 'function', p: 'procedure', a: 'aggregate', w: 'window' };

/** The schema model from its catalog rows. */
export function assembleModel(rows: ModelRows): SchemaModel {
  const types: TypeInfo[] = [
    ...rows.domains.map((d): TypeInfo => ({
      id: objectId('pg_type', d.oid),
      schema: d.schema,
      name: d.name,
      kind: 'domain',
      base_type: d.base_type,
      collation: qualified(d.collation_schema, d.collation_name),
      default: d.default_expr,
      not_null: d.not_null,
      constraints: (d.constraints ?? []).map((c) => ({ id: objectId('pg_constraint', c.oid), name: c.name, definition: c.definition, validated: c.validated })),
    })),
    ...rows.composites.map((c): TypeInfo => ({
      id: objectId('pg_type', c.oid),
      schema: c.schema,
      name: c.name,
      kind: 'composite',
      attributes: (c.attributes ?? []).map((a) => ({ name: a.name, data_type: a.data_type, collation: qualified(a.collation_schema, a.collation_name) })),
    })),
    ...rows.ranges.map((r): TypeInfo => ({
      id: objectId('pg_type', r.oid),
      schema: r.schema,
      name: r.name,
      kind: 'range',
      subtype: r.subtype,
      subtype_opclass: qualified(r.opclass_schema, r.opclass_name),
      collation: qualified(r.collation_schema, r.collation_name),
      canonical: r.canonical,
      subtype_diff: r.subtype_diff,
      multirange: qualified(r.multirange_schema, r.multirange_name),
    })),
  ];
  return {
    schemas: rows.schemas.map((s) => ({ id: objectId('pg_namespace', s.oid), name: s.name })),
    types,
    routines: rows.routines.map((r) => ({
      id: objectId('pg_proc', r.oid),
      schema: r.schema,
      name: r.name,
      kind: ROUTINE_KINDS[r.prokind],
      identity_arguments: r.identity_arguments,
      definition: r.prokind === 'a' ? aggregateSql(r) : (r.definition ?? ''),
    })),
    triggers: rows.triggers.map((t) => ({
      id: objectId('pg_trigger', t.oid),
      table_schema: t.table_schema,
      table: t.table,
      name: t.name,
      definition: t.definition,
      enabled: t.enabled,
    })),
    rules: rows.rules.map((r) => ({ id: objectId('pg_rewrite', r.oid), table_schema: r.table_schema, table: r.table, name: r.name, definition: r.definition })),
    policies: rows.policies.map((p) => ({
      id: objectId('pg_policy', p.oid),
      table_schema: p.table_schema,
      table: p.table,
      name: p.name,
      permissive: p.permissive,
      command: COMMANDS[p.command],
      roles: Array.isArray(p.roles) ? p.roles.map(String) : [],
      using: p.using_expr,
      with_check: p.check_expr,
    })),
    statistics: rows.statistics.map((s) => ({
      id: objectId('pg_statistic_ext', s.oid),
      schema: s.schema,
      name: s.name,
      table_schema: s.table_schema,
      table: s.table,
      definition: s.definition,
      target: s.target === null ? null : Number(s.target),
    })),
    uncaptured: rows.uncaptured.map((u) => ({ kind: u.kind, schema: u.schema, name: u.name })),
    comments: rows.comments.map((c) => ({ id: c.id, comment: c.comment })),
    dependencies: rows.dependencies.filter((d) => d.obj !== null && d.ref !== null && d.obj !== d.ref).map((d): [string, string] => [d.obj, d.ref]),
  };
}
