import { type AstNode, names, nodeBody, nodeKind, rangeVarName, typeNameText } from './ast';
import { LOCK_BY_NUMBER, strongest } from './lock-modes';
import type { ParsedStatement } from './parse-statements';
import type { SchemaIndex } from './schema-index';
import { classifyTypeChange } from './type-change';
import type { LockMode } from './types';
import { isVolatileExpression } from './volatility';

/**
 * What a statement does to the table it locks: `rewrite` copies the heap and rebuilds indexes,
 * `scan` reads every row under the lock, `index_build` sorts the table into a new index,
 * `data` changes rows, `catalog` only touches system catalogs, `none` locks no table.
 */
export type Effect = 'rewrite' | 'scan' | 'index_build' | 'data' | 'catalog' | 'none';

const EFFECT_RANK: Record<Effect, number> = { none: 0, catalog: 1, data: 2, scan: 3, index_build: 4, rewrite: 5 };

export interface TableLock {
  table: string;
  mode: LockMode;
}

/** Everything later steps need to know about one statement, derived from its parse tree. */
export interface StatementFacts {
  statement_type: string;
  /** Main target `schema.name`, or "" when the statement targets no relation. */
  table: string;
  /** Every relation the statement locks, with the mode PostgreSQL takes. */
  locks: TableLock[];
  /** Mode on `table` (the strongest one of the statement). */
  lock_type: LockMode;
  effect: Effect;
  effect_reason: string;
  /** Why the statement cannot run inside a transaction block, or null. */
  non_transactional: string | null;
  /** Data-loss operation, e.g. "DROP TABLE", or null. */
  destructive: string | null;
  /** ALTER COLUMN TYPE to a smaller or stricter type. */
  narrowing: boolean;
  /** For UPDATE/DELETE: whether a WHERE clause restricts the rows. */
  has_where: boolean;
  /** DROP/TRUNCATE ... CASCADE. */
  cascade: boolean;
  /** Parsed ALTER TABLE subcommands (AlterTableCmd bodies). */
  subcommands: AstNode[];
  /** Tables referenced by foreign keys the statement adds. */
  fk_targets: string[];
  /** Index complexity points: columns, uniqueness, expressions, predicates. */
  index_complexity: number;
}

const snake = (s: string): string => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

function base(type: string, table: string, mode: LockMode, effect: Effect, reason: string): StatementFacts {
  return {
    statement_type: type,
    table,
    locks: table && mode !== 'NONE' ? [{ table, mode }] : [],
    lock_type: mode,
    effect,
    effect_reason: reason,
    non_transactional: null,
    destructive: null,
    narrowing: false,
    has_where: true,
    cascade: false,
    subcommands: [],
    fk_targets: [],
    index_complexity: 0,
  };
}

const SUBCOMMAND_NAMES: Record<string, string> = {
  AT_AddColumn: 'ADD_COLUMN',
  AT_DropColumn: 'DROP_COLUMN',
  AT_AlterColumnType: 'ALTER_COLUMN_TYPE',
  AT_SetNotNull: 'SET_NOT_NULL',
  AT_DropNotNull: 'DROP_NOT_NULL',
  AT_AddConstraint: 'ADD_CONSTRAINT',
  AT_ValidateConstraint: 'VALIDATE_CONSTRAINT',
  AT_DropConstraint: 'DROP_CONSTRAINT',
  AT_AttachPartition: 'ATTACH_PARTITION',
  AT_DetachPartition: 'DETACH_PARTITION',
  AT_AddIdentity: 'ADD_IDENTITY',
  AT_SetTableSpace: 'SET_TABLESPACE',
  AT_SetLogged: 'SET_LOGGED',
  AT_SetUnLogged: 'SET_UNLOGGED',
};

const CONSTRAINT_NAMES: Record<string, string> = {
  CONSTR_FOREIGN: 'ADD_FOREIGN_KEY',
  CONSTR_PRIMARY: 'ADD_PRIMARY_KEY',
  CONSTR_UNIQUE: 'ADD_UNIQUE_CONSTRAINT',
  CONSTR_CHECK: 'ADD_CHECK_CONSTRAINT',
  CONSTR_EXCLUSION: 'ADD_EXCLUSION_CONSTRAINT',
};

/** Per-subcommand lock level, transcribed from AlterTableGetLockLevel (tablecmds.c, PostgreSQL 17). */
export function subcommandLock(cmd: AstNode): LockMode {
  switch (cmd.subtype as string) {
    case 'AT_EnableTrig':
    case 'AT_EnableAlwaysTrig':
    case 'AT_EnableReplicaTrig':
    case 'AT_EnableTrigAll':
    case 'AT_EnableTrigUser':
    case 'AT_DisableTrig':
    case 'AT_DisableTrigAll':
    case 'AT_DisableTrigUser':
      return 'SHARE ROW EXCLUSIVE';
    case 'AT_AddConstraint':
    case 'AT_ReAddConstraint': {
      const con = cmd.def?.Constraint as AstNode | undefined;
      return con?.contype === 'CONSTR_FOREIGN' ? 'SHARE ROW EXCLUSIVE' : 'ACCESS EXCLUSIVE';
    }
    case 'AT_SetStatistics':
    case 'AT_ClusterOn':
    case 'AT_DropCluster':
    case 'AT_SetOptions':
    case 'AT_ResetOptions':
    case 'AT_ValidateConstraint':
    case 'AT_AttachPartition':
    case 'AT_DetachPartitionFinalize':
    case 'AT_SetRelOptions':
    case 'AT_ResetRelOptions':
      return 'SHARE UPDATE EXCLUSIVE';
    case 'AT_DetachPartition':
      return cmd.def?.PartitionCmd?.concurrent ? 'SHARE UPDATE EXCLUSIVE' : 'ACCESS EXCLUSIVE';
    default:
      return 'ACCESS EXCLUSIVE';
  }
}

/** Effect of one ALTER TABLE subcommand, given the current table from the snapshot. */
function subcommandEffect(cmd: AstNode, table: string, schema: SchemaIndex): { effect: Effect; reason: string; narrowing: boolean } {
  const t = schema.table(table);
  switch (cmd.subtype as string) {
    case 'AT_AddColumn': {
      const col = cmd.def?.ColumnDef as AstNode;
      const cons = ((col?.constraints ?? []) as AstNode[]).map((c) => c.Constraint as AstNode);
      const def = cons.find((c) => c.contype === 'CONSTR_DEFAULT');
      const type = typeNameText(col?.typeName).toLowerCase();
      if (cons.some((c) => c.contype === 'CONSTR_GENERATED'))
        return { effect: 'rewrite', reason: 'a stored generated column is computed for every row', narrowing: false };
      if (cons.some((c) => c.contype === 'CONSTR_IDENTITY'))
        return { effect: 'rewrite', reason: 'an identity column fills every existing row', narrowing: false };
      if (/^(big|small)?serial$|^serial[248]$/.test(type))
        return { effect: 'rewrite', reason: 'a serial column fills every row from its sequence', narrowing: false };
      if (def && isVolatileExpression(def.raw_expr))
        return { effect: 'rewrite', reason: 'a volatile DEFAULT is evaluated for every existing row', narrowing: false };
      if (cons.some((c) => c.contype === 'CONSTR_PRIMARY' || c.contype === 'CONSTR_UNIQUE'))
        return { effect: 'index_build', reason: 'the new column gets a unique index', narrowing: false };
      if (cons.some((c) => c.contype === 'CONSTR_CHECK' || c.contype === 'CONSTR_FOREIGN'))
        return { effect: 'scan', reason: 'the new column constraint is checked against every row', narrowing: false };
      return {
        effect: 'catalog',
        reason: def ? 'a non-volatile default is stored in the catalog (no rewrite)' : 'a nullable column without default is catalog-only',
        narrowing: false,
      };
    }
    case 'AT_AlterColumnType': {
      const colName = String(cmd.name ?? '');
      const prev = t?.columns.find((c) => c.name === colName)?.data_type;
      const to = typeNameText(cmd.def?.ColumnDef?.typeName);
      const change = classifyTypeChange(prev, to);
      if (change.rewrite)
        return {
          effect: 'rewrite',
          reason: `changing ${colName} from ${prev ?? 'its current type'} to ${to} rewrites the table and its indexes`,
          narrowing: change.narrowing,
        };
      // PostgreSQL drops and adds again the CHECK constraints that read the column, and checks each
      // against every row under the lock: a varchar or numeric widened under a CHECK took 52-60 ms
      // on a million rows where one without took 1 ms (set AE: 95-155 ms, predicted 1).
      const checks = (t?.constraints ?? []).filter((c) => c.type === 'check' && c.validated && c.columns.includes(colName));
      return checks.length
        ? {
            effect: 'scan',
            reason: `${prev} -> ${to} is binary coercible (no rewrite), but PostgreSQL checks ${checks.map((c) => c.name).join(', ')} again against every row under the lock`,
            narrowing: false,
          }
        : { effect: 'catalog', reason: `${prev} -> ${to} is binary coercible (no rewrite)`, narrowing: false };
    }
    case 'AT_SetNotNull': {
      const col = String(cmd.name ?? '');
      // Compiled once per statement, and only when the table has a validated CHECK to read.
      let notNull: RegExp | undefined;
      const proven = t?.constraints.some(
        (c) => c.type === 'check' && c.validated && (notNull ??= new RegExp(`\\(?${col}\\)? IS NOT NULL`, 'i')).test(c.definition),
      );
      return proven
        ? { effect: 'catalog', reason: 'a validated CHECK (col IS NOT NULL) lets PostgreSQL skip the scan', narrowing: false }
        : { effect: 'scan', reason: 'SET NOT NULL scans the whole table to prove no NULLs exist', narrowing: false };
    }
    case 'AT_AddConstraint': {
      const con = cmd.def?.Constraint as AstNode;
      if (con?.contype === 'CONSTR_PRIMARY' || con?.contype === 'CONSTR_UNIQUE' || con?.contype === 'CONSTR_EXCLUSION') {
        return con.indexname
          ? { effect: 'catalog', reason: 'USING INDEX attaches an existing index', narrowing: false }
          : { effect: 'index_build', reason: 'the constraint builds its index under the lock', narrowing: false };
      }
      if (con?.skip_validation) return { effect: 'catalog', reason: 'NOT VALID skips checking existing rows', narrowing: false };
      return { effect: 'scan', reason: 'the constraint is checked against every existing row under the lock', narrowing: false };
    }
    case 'AT_ValidateConstraint':
      return { effect: 'scan', reason: 'VALIDATE scans existing rows under SHARE UPDATE EXCLUSIVE (reads and writes continue)', narrowing: false };
    case 'AT_SetTableSpace':
    case 'AT_SetAccessMethod':
    case 'AT_SetLogged':
    case 'AT_SetUnLogged':
      return { effect: 'rewrite', reason: 'the table is copied', narrowing: false };
    case 'AT_AttachPartition':
      return { effect: 'scan', reason: 'the partition is scanned to prove its rows match the bound unless a matching CHECK exists', narrowing: false };
    case 'AT_AddIdentity':
      return { effect: 'catalog', reason: 'identity is added to an existing column (catalog-only)', narrowing: false };
    case 'AT_SetExpression':
      return { effect: 'rewrite', reason: 'the generated column is recomputed for every row', narrowing: false };
    default:
      return { effect: 'catalog', reason: 'catalog-only change', narrowing: false };
  }
}

function alterTable(body: AstNode, schema: SchemaIndex): StatementFacts {
  const table = rangeVarName(body.relation);
  const cmds = ((body.cmds ?? []) as AstNode[]).map((c) => c.AlterTableCmd as AstNode);
  const objtype = String(body.objtype ?? 'OBJECT_TABLE');
  if (objtype !== 'OBJECT_TABLE' && objtype !== 'OBJECT_FOREIGN_TABLE') {
    const what = objtype.replace('OBJECT_', '').replace('MATVIEW', 'MATERIALIZED_VIEW');
    const mode = objtype === 'OBJECT_INDEX' ? 'SHARE UPDATE EXCLUSIVE' : strongest(cmds.map(subcommandLock));
    const f = base(`ALTER_${what}`, table, mode, 'catalog', 'catalog-only change');
    f.subcommands = cmds;
    return f;
  }
  const modes = cmds.map(subcommandLock);
  let effect: Effect = 'catalog';
  let reason = 'catalog-only change';
  let narrowing = false;
  const fkTargets: string[] = [];
  const validatedParents: string[] = [];
  let destructive: string | null = null;
  for (const c of cmds) {
    const e = subcommandEffect(c, table, schema);
    if (EFFECT_RANK[e.effect] > EFFECT_RANK[effect]) {
      effect = e.effect;
      reason = e.reason;
    }
    narrowing ||= e.narrowing;
    const con = c.def?.Constraint as AstNode | undefined;
    if (con?.contype === 'CONSTR_FOREIGN') fkTargets.push(rangeVarName(con.pktable));
    // VALIDATE of a foreign key looks every row up in its parent (the snapshot knows which
    // constraint the name is); ROW SHARE on the parent, taken below.
    if (c.subtype === 'AT_ValidateConstraint') {
      const fk = schema.table(table)?.foreign_keys.find((k) => k.name === c.name);
      if (fk) validatedParents.push(`${fk.referenced_schema}.${fk.referenced_table}`);
    }
    for (const cc of (c.def?.ColumnDef?.constraints ?? []) as AstNode[])
      if (cc.Constraint?.contype === 'CONSTR_FOREIGN') fkTargets.push(rangeVarName(cc.Constraint.pktable));
    if (c.subtype === 'AT_DropColumn') destructive ??= 'DROP COLUMN';
  }
  let type = 'ALTER_TABLE';
  if (cmds.length === 1) {
    const c = cmds[0]!;
    const st = String(c.subtype);
    type = `ALTER_TABLE_${SUBCOMMAND_NAMES[st] ?? snake(st.replace(/^AT_/, ''))}`;
    if (st === 'AT_AddConstraint') type = `ALTER_TABLE_${CONSTRAINT_NAMES[String(c.def?.Constraint?.contype)] ?? 'ADD_CONSTRAINT'}`;
    if (st === 'AT_ColumnDefault') type = c.def ? 'ALTER_TABLE_SET_DEFAULT' : 'ALTER_TABLE_DROP_DEFAULT';
  }
  if (narrowing) destructive ??= 'type narrowing';
  const f = base(type, table, strongest(modes), effect, reason);
  f.locks = [
    { table, mode: f.lock_type },
    ...fkTargets.map((t) => ({ table: t, mode: 'SHARE ROW EXCLUSIVE' as LockMode })),
    ...validatedParents.map((t) => ({ table: t, mode: 'ROW SHARE' as LockMode })),
  ];
  if (cmds.some((c) => c.subtype === 'AT_DetachPartition' && c.def?.PartitionCmd?.concurrent))
    f.non_transactional = 'DETACH PARTITION CONCURRENTLY cannot run inside a transaction block';
  f.narrowing = narrowing;
  f.fk_targets = [...fkTargets, ...validatedParents];
  f.destructive = destructive;
  f.subcommands = cmds;
  f.cascade = cmds.some((c) => c.behavior === 'DROP_CASCADE');
  return f;
}

function indexComplexity(body: AstNode): number {
  const params = (body.indexParams ?? []) as AstNode[];
  let n = params.length;
  if (body.unique) n += 2;
  if (body.whereClause) n += 1;
  if (params.some((p) => p.IndexElem?.expr)) n += 2;
  if (body.accessMethod && body.accessMethod !== 'btree') n += 2;
  return n;
}

function dropStmt(body: AstNode, schema: SchemaIndex): StatementFacts {
  const rt = String(body.removeType ?? '');
  const objs = (body.objects ?? []) as AstNode[];
  const first = objs[0];
  const objName = first?.List ? names(first.List.items).join('.') : names([first ?? {}]).join('.');
  const cascade = body.behavior === 'DROP_CASCADE';
  const what = rt.replace('OBJECT_', '').replace('MATVIEW', 'MATERIALIZED_VIEW');
  if (rt === 'OBJECT_INDEX') {
    const idx = objName.includes('.') ? objName : `public.${objName}`;
    const table = schema.tableOfIndex(idx) ?? '';
    const f = base(
      body.concurrent ? 'DROP_INDEX_CONCURRENTLY' : 'DROP_INDEX',
      table,
      body.concurrent ? 'SHARE UPDATE EXCLUSIVE' : 'ACCESS EXCLUSIVE',
      'catalog',
      'the index is removed from the catalog',
    );
    if (body.concurrent) f.non_transactional = 'DROP INDEX CONCURRENTLY cannot run inside a transaction block';
    f.cascade = cascade;
    return f;
  }
  const relKinds = ['OBJECT_TABLE', 'OBJECT_VIEW', 'OBJECT_MATVIEW', 'OBJECT_FOREIGN_TABLE', 'OBJECT_SEQUENCE'];
  if (relKinds.includes(rt)) {
    const tables = objs.map((o) => {
      const parts = names(o.List?.items);
      return parts.length > 1 ? parts.join('.') : `public.${parts[0] ?? ''}`;
    });
    const f = base(`DROP_${what}`, tables[0] ?? '', 'ACCESS EXCLUSIVE', 'catalog', 'the relation and its data are removed');
    f.locks = tables.map((t) => ({ table: t, mode: 'ACCESS EXCLUSIVE' as LockMode }));
    f.cascade = cascade;
    f.destructive = rt === 'OBJECT_TABLE' ? 'DROP TABLE' : rt === 'OBJECT_MATVIEW' ? 'DROP MATERIALIZED VIEW' : null;
    return f;
  }
  const f = base(`DROP_${what}`, '', 'NONE', 'none', 'no table lock');
  f.cascade = cascade;
  f.destructive = rt === 'OBJECT_SCHEMA' ? 'DROP SCHEMA' : rt === 'OBJECT_TYPE' && cascade ? 'DROP TYPE CASCADE' : null;
  return f;
}

/** Classifies a statement and models the locks PostgreSQL takes for it. */
export function statementFacts(stmt: ParsedStatement, schema: SchemaIndex): StatementFacts {
  const kind = nodeKind(stmt.stmt);
  const b = nodeBody(stmt.stmt);
  switch (kind) {
    case 'CreateStmt': {
      const table = rangeVarName(b.relation);
      const fks: string[] = [];
      for (const el of (b.tableElts ?? []) as AstNode[]) {
        for (const c of (el.ColumnDef?.constraints ?? []) as AstNode[])
          if (c.Constraint?.contype === 'CONSTR_FOREIGN') fks.push(rangeVarName(c.Constraint.pktable));
        if (el.Constraint?.contype === 'CONSTR_FOREIGN') fks.push(rangeVarName(el.Constraint.pktable));
      }
      const parent = (b.inhRelations as AstNode[] | undefined)?.[0]?.RangeVar;
      const f = base(
        b.partbound ? 'CREATE_TABLE_PARTITION' : 'CREATE_TABLE',
        table,
        'ACCESS EXCLUSIVE',
        'catalog',
        'a new table is only visible to this transaction until commit',
      );
      f.locks = [{ table, mode: 'ACCESS EXCLUSIVE' }, ...fks.map((t) => ({ table: t, mode: 'SHARE ROW EXCLUSIVE' as LockMode }))];
      if (b.partbound && parent) f.locks.push({ table: rangeVarName(parent), mode: 'ACCESS EXCLUSIVE' });
      f.fk_targets = fks;
      return f;
    }
    case 'AlterTableStmt':
      return alterTable(b, schema);
    case 'IndexStmt': {
      const table = rangeVarName(b.relation);
      const conc = !!b.concurrent;
      const type = `CREATE_${b.unique ? 'UNIQUE_' : ''}INDEX${conc ? '_CONCURRENTLY' : ''}`;
      const f = base(
        type,
        table,
        conc ? 'SHARE UPDATE EXCLUSIVE' : 'SHARE',
        'index_build',
        conc ? 'the index is built in two table scans while reads and writes continue' : 'the index is built under a SHARE lock',
      );
      if (conc) f.non_transactional = 'CREATE INDEX CONCURRENTLY cannot run inside a transaction block';
      f.index_complexity = indexComplexity(b);
      return f;
    }
    case 'DropStmt':
      return dropStmt(b, schema);
    case 'RenameStmt': {
      const rt = String(b.renameType ?? '');
      const table = rangeVarName(b.relation);
      const what = rt.replace('OBJECT_', '').replace('TABCONSTRAINT', 'CONSTRAINT').replace('MATVIEW', 'MATERIALIZED_VIEW');
      if (rt === 'OBJECT_INDEX') return base('RENAME_INDEX', schema.tableOfIndex(table) ?? '', 'SHARE UPDATE EXCLUSIVE', 'catalog', 'catalog-only rename');
      if (!b.relation) return base(`RENAME_${what}`, '', 'NONE', 'none', 'no table lock');
      return base(`RENAME_${what}`, table, 'ACCESS EXCLUSIVE', 'catalog', 'catalog-only rename');
    }
    case 'TruncateStmt': {
      const tables = ((b.relations ?? []) as AstNode[]).map((r) => rangeVarName(r.RangeVar));
      const f = base('TRUNCATE', tables[0] ?? '', 'ACCESS EXCLUSIVE', 'catalog', 'the table files are replaced by empty ones');
      f.locks = tables.map((t) => ({ table: t, mode: 'ACCESS EXCLUSIVE' as LockMode }));
      f.cascade = b.behavior === 'DROP_CASCADE';
      f.destructive = 'TRUNCATE';
      return f;
    }
    case 'InsertStmt':
      return base('INSERT', rangeVarName(b.relation), 'ROW EXCLUSIVE', 'data', 'rows are inserted');
    case 'UpdateStmt': {
      const f = base('UPDATE', rangeVarName(b.relation), 'ROW EXCLUSIVE', 'data', 'rows are updated and locked until commit');
      f.has_where = !!b.whereClause;
      f.destructive = b.whereClause ? null : 'UPDATE without WHERE';
      return f;
    }
    case 'DeleteStmt': {
      const f = base('DELETE', rangeVarName(b.relation), 'ROW EXCLUSIVE', 'data', 'rows are deleted and locked until commit');
      f.has_where = !!b.whereClause;
      f.destructive = b.whereClause ? 'DELETE' : 'DELETE without WHERE';
      return f;
    }
    case 'MergeStmt':
      return base('MERGE', rangeVarName(b.relation), 'ROW EXCLUSIVE', 'data', 'rows are merged');
    case 'SelectStmt':
      return base('SELECT', '', 'ACCESS SHARE', 'none', 'read only');
    case 'VacuumStmt': {
      const opts = ((b.options ?? []) as AstNode[]).map((o) => String(o.DefElem?.defname ?? ''));
      const rels = ((b.rels ?? []) as AstNode[]).map((r) => rangeVarName(r.VacuumRelation?.relation));
      const full = opts.includes('full');
      const type = b.is_vacuumcmd ? (full ? 'VACUUM_FULL' : 'VACUUM') : 'ANALYZE';
      const f = base(
        type,
        rels[0] ?? '',
        full ? 'ACCESS EXCLUSIVE' : 'SHARE UPDATE EXCLUSIVE',
        full ? 'rewrite' : 'scan',
        full ? 'VACUUM FULL rewrites the table' : 'reads the table without blocking reads or writes',
      );
      if (b.is_vacuumcmd) f.non_transactional = 'VACUUM cannot run inside a transaction block';
      return f;
    }
    case 'ReindexStmt': {
      const conc = ((b.params ?? []) as AstNode[]).some((p) => p.DefElem?.defname === 'concurrently');
      const table = b.kind === 'REINDEX_OBJECT_INDEX' ? (schema.tableOfIndex(rangeVarName(b.relation)) ?? '') : rangeVarName(b.relation);
      const f = base(conc ? 'REINDEX_CONCURRENTLY' : 'REINDEX', table, conc ? 'SHARE UPDATE EXCLUSIVE' : 'SHARE', 'index_build', 'indexes are rebuilt');
      if (conc || b.kind === 'REINDEX_OBJECT_SCHEMA' || b.kind === 'REINDEX_OBJECT_DATABASE' || b.kind === 'REINDEX_OBJECT_SYSTEM')
        f.non_transactional = 'REINDEX CONCURRENTLY (or of a schema/database) cannot run inside a transaction block';
      return f;
    }
    case 'ClusterStmt':
      return base('CLUSTER', rangeVarName(b.relation), 'ACCESS EXCLUSIVE', 'rewrite', 'CLUSTER rewrites the table in index order');
    case 'CreateTrigStmt':
      return base('CREATE_TRIGGER', rangeVarName(b.relation), 'SHARE ROW EXCLUSIVE', 'catalog', 'trigger added to the catalog');
    case 'RuleStmt':
      return base('CREATE_RULE', rangeVarName(b.relation), 'ACCESS EXCLUSIVE', 'catalog', 'rule added to the catalog');
    case 'LockStmt': {
      const tables = ((b.relations ?? []) as AstNode[]).map((r) => rangeVarName(r.RangeVar));
      const mode = LOCK_BY_NUMBER[Number(b.mode)] ?? 'ACCESS EXCLUSIVE';
      const f = base('LOCK_TABLE', tables[0] ?? '', mode, 'catalog', 'explicit lock held until the end of the transaction');
      f.locks = tables.map((t) => ({ table: t, mode }));
      return f;
    }
    case 'RefreshMatViewStmt':
      return base(
        b.concurrent ? 'REFRESH_MATERIALIZED_VIEW_CONCURRENTLY' : 'REFRESH_MATERIALIZED_VIEW',
        rangeVarName(b.relation),
        b.concurrent ? 'EXCLUSIVE' : 'ACCESS EXCLUSIVE',
        'rewrite',
        'the view query is re-run and its data replaced',
      );
    case 'ViewStmt':
      return base(
        b.replace ? 'CREATE_OR_REPLACE_VIEW' : 'CREATE_VIEW',
        rangeVarName(b.view),
        b.replace ? 'ACCESS EXCLUSIVE' : 'NONE',
        'catalog',
        'view definition stored in the catalog',
      );
    case 'CreateTableAsStmt':
      return base(
        b.objtype === 'OBJECT_MATVIEW' ? 'CREATE_MATERIALIZED_VIEW' : 'CREATE_TABLE_AS',
        rangeVarName(b.into?.rel),
        'NONE',
        'none',
        'the source tables are only read',
      );
    case 'CommentStmt':
      return base('COMMENT', '', 'NONE', 'none', 'catalog-only');
    case 'AlterEnumStmt':
      return base(b.oldVal ? 'ALTER_TYPE_RENAME_VALUE' : 'ALTER_TYPE_ADD_VALUE', '', 'NONE', 'none', 'enum catalog change');
    case 'CreateEnumStmt':
      return base('CREATE_TYPE_ENUM', '', 'NONE', 'none', 'new type');
    case 'CreateFunctionStmt':
      return base(b.is_procedure ? 'CREATE_PROCEDURE' : 'CREATE_FUNCTION', '', 'NONE', 'none', 'new routine');
    case 'VariableSetStmt':
      return base(b.kind === 'VAR_RESET' || b.kind === 'VAR_RESET_ALL' ? 'RESET' : 'SET', '', 'NONE', 'none', 'session setting');
    case 'TransactionStmt':
      return base(String(b.kind ?? 'TRANS_STMT').replace('TRANS_STMT_', ''), '', 'NONE', 'none', 'transaction control');
    case 'AlterSystemStmt': {
      const f = base('ALTER_SYSTEM', '', 'NONE', 'none', 'server configuration');
      f.non_transactional = 'ALTER SYSTEM cannot run inside a transaction block';
      return f;
    }
    case 'CreatedbStmt':
    case 'DropdbStmt': {
      const f = base(kind === 'CreatedbStmt' ? 'CREATE_DATABASE' : 'DROP_DATABASE', '', 'NONE', 'none', 'database-level operation');
      f.non_transactional = `${kind === 'CreatedbStmt' ? 'CREATE' : 'DROP'} DATABASE cannot run inside a transaction block`;
      if (kind === 'DropdbStmt') f.destructive = 'DROP DATABASE';
      return f;
    }
    case 'AlterDomainStmt':
      return base('ALTER_DOMAIN', '', 'NONE', b.subtype === 'C' ? 'scan' : 'none', 'domain constraints are checked against every column using the domain');
    case 'CreateStatsStmt':
      return base('CREATE_STATISTICS', rangeVarName(((b.relations ?? []) as AstNode[])[0]?.RangeVar), 'SHARE UPDATE EXCLUSIVE', 'catalog', 'statistics object');
    case 'CreatePolicyStmt':
      return base('CREATE_POLICY', rangeVarName(b.table), 'ACCESS EXCLUSIVE', 'catalog', 'policy added');
    default:
      return base(snake(kind.replace(/Stmt$/, '')) || 'UNKNOWN', '', 'NONE', 'none', 'no table lock modelled');
  }
}
