import { quoteIdent } from '../../pg/quote';
import { type AstNode, nodeKind, rangeVarName } from '../ast';
import { violatingRows } from './check-constraint-check';
import { boundCondition, boundPoints, hashOverlap, parseBound, type PartitionKey } from './partition-bound';
import type { PreflightSession } from './preflight-session';
import type { PreflightCheck, PreflightContext, PreflightTask, TaskOutcome } from './types';

const CHECK = 'preflight_partition';

interface ParentKeys {
  keys: PartitionKey[];
  names: string[];
  defaultPartition: string | null;
  expression: boolean;
}

async function parentKeys(session: PreflightSession, parentOid: number): Promise<ParentKeys> {
  const rows = await session.query<{ attnum: number; attname: string | null; type: string | null; def: string | null }>(
    `SELECT k.attnum::int AS attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type,
            CASE WHEN pt.partdefid <> 0 THEN pt.partdefid::regclass::text END AS def
       FROM pg_partitioned_table pt CROSS JOIN LATERAL unnest(pt.partattrs::int2[]) WITH ORDINALITY AS k(attnum, ord)
       LEFT JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = k.attnum
      WHERE pt.partrelid = $1 ORDER BY k.ord`,
    [parentOid],
  );
  return {
    keys: rows.map((r) => ({ sql: quoteIdent(r.attname ?? ''), type: r.type ?? '' })),
    names: rows.map((r) => r.attname ?? ''),
    defaultPartition: rows[0]?.def ?? null,
    expression: rows.length === 0 || rows.some((r) => r.attnum === 0),
  };
}

/** Existing partitions whose bound overlaps `bound` (PostgreSQL refuses such a partition whatever the data). */
async function overlaps(session: PreflightSession, parentOid: number, bound: AstNode, keys: PartitionKey[], except: string | null): Promise<string[]> {
  const parts = await session.query<{ name: string; bound: string }>(
    `SELECT c.oid::regclass::text AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1 AND c.relpartbound IS NOT NULL ORDER BY 1`,
    [parentOid],
  );
  const out: string[] = [];
  for (const p of parts) {
    if (p.name === except) continue;
    const other = parseBound(p.bound);
    if (!other || other.is_default || bound.is_default) continue;
    if (bound.strategy === 'h') {
      if (hashOverlap(bound, other)) out.push(`${p.name} (${p.bound})`);
      continue;
    }
    // Two ranges overlap when either one's lower end lies in the other; two lists when a value is in both.
    const tests: string[] = [];
    for (const [a, b] of [
      [bound, other],
      [other, bound],
    ] as const) {
      for (const point of boundPoints(a, keys)) {
        const cond = boundCondition(
          b,
          keys.map((k, i) => ({ sql: point[i]!, type: k.type })),
          parentOid,
        );
        if (cond) tests.push(`coalesce((${cond}), false)`);
      }
      if (bound.strategy === 'l') break;
    }
    if (!tests.length) continue;
    const [r] = await session.query<{ hit: boolean }>(`SELECT (${tests.join(' OR ')}) AS hit`);
    if (r?.hit) out.push(`${p.name} (${p.bound})`);
  }
  return out;
}

function partitionTask(statementIndex: number, parent: string, child: string, bound: AstNode, attach: boolean): PreflightTask {
  const what = attach ? `ATTACH PARTITION ${child} to ${parent}` : `CREATE TABLE ${child} PARTITION OF ${parent}`;
  return {
    check: CHECK,
    statementIndex,
    tables: attach ? [parent, child] : [parent],
    label: what,
    // The bound's values are the migration's expressions (PostgreSQL 12+ accepts any constant expression there).
    async evaluates(session) {
      const parentRel = await session.relation(parent);
      if (!parentRel) return [];
      const pk = await parentKeys(session, parentRel.oid);
      const cond = pk.expression ? null : boundCondition(bound, pk.keys, parentRel.oid);
      return cond ? [`SELECT 1 FROM ${parentRel.sql} WHERE coalesce((${cond}), false)`] : [];
    },
    async run(session): Promise<TaskOutcome> {
      const parentRel = (await session.relation(parent))!;
      const pk = await parentKeys(session, parentRel.oid);
      if (pk.expression) return { status: 'skipped', detail: `${what}: skipped, the partition key has expressions, which are not checked on the live data` };
      const problems: string[] = [];
      let sampled = false;
      const cond = boundCondition(bound, pk.keys, parentRel.oid);
      const clash = await overlaps(session, parentRel.oid, bound, pk.keys, attach ? child : null);
      if (clash.length) problems.push(`the bound overlaps partition(s) ${clash.join(', ')}`);
      if (attach && cond) {
        const r = await violatingRows(session, child, `coalesce((${cond}), false)`, pk.names, `the bound check of ${child}`);
        sampled ||= !!r.sampled;
        if (r.status === 'failed') problems.push(r.detail);
      }
      if (pk.defaultPartition && pk.defaultPartition !== child && cond) {
        const def = await session.relation(pk.defaultPartition);
        if (def?.readable) {
          const r = await violatingRows(
            session,
            pk.defaultPartition,
            `NOT coalesce((${cond}), false)`,
            pk.names,
            `the default partition ${pk.defaultPartition} (its rows must lie outside the new bound)`,
          );
          sampled ||= !!r.sampled;
          if (r.status === 'failed') problems.push(r.detail);
        }
      }
      if (problems.length) return { status: 'failed', detail: `${what} would fail: ${problems.join('; ')}`, sampled };
      return {
        status: 'passed',
        detail: `${what}: no overlap with other partitions${attach ? ', every row inside the bound' : ''}${pk.defaultPartition ? ', no row of the default partition inside it' : ''}${bound.is_default ? ' (a DEFAULT partition: rows are not checked against the other bounds)' : ''}`,
        sampled,
      };
    },
  };
}

function tasks(ctx: PreflightContext): PreflightTask[] {
  const i = ctx.stmt.index;
  if (nodeKind(ctx.stmt.stmt) === 'CreateStmt') {
    const b = ctx.stmt.stmt.CreateStmt as AstNode;
    const parent = (b.inhRelations as AstNode[] | undefined)?.[0]?.RangeVar;
    return b.partbound && parent ? [partitionTask(i, rangeVarName(parent), rangeVarName(b.relation), b.partbound as AstNode, false)] : [];
  }
  return ctx.subcommands
    .filter((c) => c.subtype === 'AT_AttachPartition' && c.def?.PartitionCmd?.bound)
    .map((c) => partitionTask(i, ctx.facts.table, rangeVarName(c.def.PartitionCmd.name), c.def.PartitionCmd.bound as AstNode, true));
}

export const partitionBoundsCheck: PreflightCheck = {
  name: CHECK,
  doc: 'ATTACH PARTITION and CREATE TABLE ... PARTITION OF: rows outside the bound, rows of the default partition inside it, bounds overlapping existing partitions.',
  tasks,
};
