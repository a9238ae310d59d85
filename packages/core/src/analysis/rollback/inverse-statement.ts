import { type AstNode, names, nodeBody, nodeKind, rangeVarName } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import { qualify, type SchemaIndex } from '../schema-index';
import { quoteIdent, quoteLiteral, quoteQualified } from '../../pg/quote';
import { deparse } from '../../pg/deparse';
import type { StatementFacts } from '../statement-facts';
import type { RollbackStep } from '../types';
import { columnDdl, createTableDdl, foreignKeyDdls, indexDdls, indexWithPartitionsDdl } from './recreate-ddl';
import { type RollbackContext, NO_CONTEXT } from './rollback-context';
import { previousComment, previousRoutine, previousRule, previousTrigger } from './replaced-definitions';
import { droppedRoutines, type Inverse, inverseAlterDomain } from './restore-definitions';
import { dropRoutineSql } from './routine-match';
import { enumValueManualUndo } from './manual-procedures';
import { inverseAlterSequence } from './sequence-options';

const NOTHING = '-- nothing to undo';

/** Names PostgreSQL gives unnamed constraints (ChooseConstraintName), truncation aside. */
function defaultConstraintName(table: string, con: AstNode, column?: string): string | null {
  const rel = table.split('.').pop()!;
  const cols = names(con.keys ?? con.fk_attrs).concat(column ? [column] : []);
  switch (con.contype) {
    case 'CONSTR_PRIMARY':
      return `${rel}_pkey`;
    case 'CONSTR_UNIQUE':
      return `${rel}_${cols.join('_')}_key`;
    case 'CONSTR_FOREIGN':
      return `${rel}_${cols.join('_')}_fkey`;
    case 'CONSTR_CHECK':
      return cols.length ? `${rel}_${cols.join('_')}_check` : `${rel}_check`;
    case 'CONSTR_EXCLUSION':
      return `${rel}_excl`;
    default:
      return null;
  }
}

const irreversible = (warning: string): Inverse => ({ sql: null, reversible: false, warning });

/** `IF NOT EXISTS` on an object the snapshot already has: PostgreSQL did nothing, so neither does the undo (dropping it would remove what was there before). */
const alreadyThere = (what: string): Inverse => ({
  sql: `${NOTHING}: ${what} existed before the migration (IF NOT EXISTS left it as it was)`,
  reversible: true,
  warning: null,
});

/** Inverse of one ALTER TABLE subcommand, from the table's pre-migration state in the snapshot. */
function inverseSubcommand(table: string, cmd: AstNode, schema: SchemaIndex, ctx: RollbackContext, stmtIndex: number): Inverse {
  const t = schema.table(table);
  const tq = quoteQualified(table);
  const col = cmd.name ? String(cmd.name) : '';
  // As the column was just before this statement (earlier statements may have renamed or changed it).
  const prevCol = ctx.columnBefore(stmtIndex, table, col) ?? (ctx === NO_CONTEXT ? t?.columns.find((c) => c.name === col) : undefined);
  switch (cmd.subtype as string) {
    case 'AT_AddColumn':
      if (
        cmd.missing_ok &&
        (ctx === NO_CONTEXT
          ? t?.columns.some((c) => c.name === String(cmd.def?.ColumnDef?.colname))
          : ctx.columnBefore(stmtIndex, table, String(cmd.def?.ColumnDef?.colname)))
      )
        return { sql: NOTHING, reversible: true, warning: null };
      return { sql: `ALTER TABLE ${tq} DROP COLUMN ${quoteIdent(String(cmd.def?.ColumnDef?.colname))}`, reversible: true, warning: null };
    case 'AT_DropColumn':
      if (!prevCol) return irreversible(`column ${col} is not in the snapshot; it cannot be recreated`);
      return {
        sql: `ALTER TABLE ${tq} ADD COLUMN ${columnDdl(prevCol)}`,
        reversible: false,
        warning: `column ${col} is recreated empty: its data is not restored`,
      };
    case 'AT_AlterColumnType':
      if (!prevCol) return irreversible(`previous type of ${col} is unknown (not in the snapshot)`);
      return {
        sql: `ALTER TABLE ${tq} ALTER COLUMN ${quoteIdent(col)} TYPE ${prevCol.data_type} USING ${quoteIdent(col)}::${prevCol.data_type}`,
        reversible: true,
        warning: null,
      };
    case 'AT_SetNotNull':
      return { sql: `ALTER TABLE ${tq} ALTER COLUMN ${quoteIdent(col)} DROP NOT NULL`, reversible: true, warning: null };
    case 'AT_DropNotNull':
      return prevCol && !prevCol.nullable
        ? {
            sql: `ALTER TABLE ${tq} ALTER COLUMN ${quoteIdent(col)} SET NOT NULL`,
            reversible: true,
            warning: 'SET NOT NULL fails if NULLs were written in the meantime',
          }
        : { sql: NOTHING, reversible: true, warning: null };
    case 'AT_ColumnDefault':
      if (prevCol?.default) return { sql: `ALTER TABLE ${tq} ALTER COLUMN ${quoteIdent(col)} SET DEFAULT ${prevCol.default}`, reversible: true, warning: null };
      return { sql: `ALTER TABLE ${tq} ALTER COLUMN ${quoteIdent(col)} DROP DEFAULT`, reversible: true, warning: null };
    case 'AT_AddConstraint': {
      const con = cmd.def?.Constraint as AstNode;
      // USING INDEX: the constraint takes the index's name unless it has its own.
      const named = con?.conname ?? con?.indexname;
      const name = named ? String(named) : defaultConstraintName(table, con);
      if (!name) return irreversible('the constraint name cannot be determined');
      const sql = [`ALTER TABLE ${tq} DROP CONSTRAINT ${quoteIdent(name)}`];
      const warnings: string[] = named ? [] : [`assumes PostgreSQL's default name ${name}`];
      // PRIMARY KEY sets its columns NOT NULL, and dropping the key does not clear that.
      if (con?.contype === 'CONSTR_PRIMARY' && t) {
        const keyCols = con.indexname
          ? (t.indexes.find((i) => i.name === con.indexname)?.columns ?? ctx.indexColumns.get(`${table.split('.')[0]}.${con.indexname}`) ?? [])
          : names(con.keys);
        for (const c of keyCols) if (t.columns.find((x) => x.name === c)?.nullable) sql.push(`ALTER TABLE ${tq} ALTER COLUMN ${quoteIdent(c)} DROP NOT NULL`);
      }
      // Dropping the constraint drops the index it took over: a snapshot index is built again.
      for (const def of ctx.absorption.recreate.get(stmtIndex) ?? []) {
        sql.push(def);
        warnings.push(`index ${String(con.indexname)} is rebuilt (dropping the constraint drops it)`);
      }
      return { sql: sql.join(';\n'), reversible: true, warning: warnings.length ? warnings.join('; ') : null };
    }
    case 'AT_DropConstraint': {
      const c = t?.constraints.find((x) => x.name === col);
      if (c) return { sql: `ALTER TABLE ${tq} ADD CONSTRAINT ${quoteIdent(col)} ${c.definition}`, reversible: true, warning: null };
      const fk = t?.foreign_keys.find((x) => x.name === col);
      if (fk) return { sql: `ALTER TABLE ${tq} ADD CONSTRAINT ${quoteIdent(col)} ${fk.definition}`, reversible: true, warning: null };
      // Added by an earlier statement of this migration: put back as it added it (its own undo drops it again).
      const added = ctx.constraintAddedEarlier(stmtIndex, table, col);
      if (added) return { sql: `ALTER TABLE ${tq} ADD ${added}`, reversible: true, warning: null };
      if (cmd.missing_ok) return { sql: NOTHING, reversible: true, warning: null };
      return irreversible(`constraint ${col} is not in the snapshot`);
    }
    case 'AT_ValidateConstraint':
      return { sql: NOTHING, reversible: true, warning: null };
    case 'AT_AddIdentity':
      return { sql: `ALTER TABLE ${tq} ALTER COLUMN ${quoteIdent(col)} DROP IDENTITY`, reversible: true, warning: null };
    case 'AT_DropIdentity':
      return prevCol?.identity
        ? {
            sql: `ALTER TABLE ${tq} ALTER COLUMN ${quoteIdent(col)} ADD GENERATED ${prevCol.identity === 'always' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`,
            reversible: true,
            warning: 'the identity sequence restarts at 1',
          }
        : irreversible('previous identity is unknown');
    case 'AT_AttachPartition':
      return { sql: `ALTER TABLE ${tq} DETACH PARTITION ${quoteQualified(rangeVarName(cmd.def?.PartitionCmd?.name))}`, reversible: true, warning: null };
    case 'AT_DetachPartition': {
      const part = rangeVarName(cmd.def?.PartitionCmd?.name);
      const p = schema.table(part);
      return p?.partition_bound
        ? { sql: `ALTER TABLE ${tq} ATTACH PARTITION ${quoteQualified(part)} ${p.partition_bound}`, reversible: true, warning: null }
        : irreversible('the partition bound is unknown');
    }
    case 'AT_EnableTrig':
      return { sql: `ALTER TABLE ${tq} DISABLE TRIGGER ${quoteIdent(col)}`, reversible: true, warning: null };
    case 'AT_DisableTrig':
      return { sql: `ALTER TABLE ${tq} ENABLE TRIGGER ${quoteIdent(col)}`, reversible: true, warning: null };
    case 'AT_EnableRowSecurity':
      return { sql: `ALTER TABLE ${tq} DISABLE ROW LEVEL SECURITY`, reversible: true, warning: null };
    case 'AT_DisableRowSecurity':
      return { sql: `ALTER TABLE ${tq} ENABLE ROW LEVEL SECURITY`, reversible: true, warning: null };
    default:
      return irreversible(`${String(cmd.subtype).replace(/^AT_/, '')} has no automatic inverse`);
  }
}

/** `schema.name` of a DROP's first object (a name list, or a TypeName for DROP TYPE). */
function objectName(body: AstNode): string {
  const o = ((body.objects ?? []) as AstNode[])[0];
  const parts = o?.List ? names(o.List.items) : o?.TypeName ? names(o.TypeName.names) : names([o ?? {}]);
  return parts.length > 1 ? parts.join('.') : `public.${parts[0] ?? ''}`;
}

/** ALTER ... RENAME back, for objects other than tables, columns, views, indexes and constraints. */
function renameBack(b: AstNode, schema: SchemaIndex): string | null {
  const rt = String(b.renameType);
  const newName = quoteIdent(String(b.newname));
  const obj = b.object as AstNode | undefined;
  const rel = b.relation ? rangeVarName(b.relation) : '';
  const schemaOf = rel.split('.')[0] ?? 'public';
  switch (rt) {
    case 'OBJECT_FUNCTION':
    case 'OBJECT_PROCEDURE': {
      const owa = obj?.ObjectWithArgs as AstNode | undefined;
      if (!owa) return null;
      const parts = names(owa.objname);
      const old = parts.pop()!;
      const s = parts.pop() ?? schema.searchPath[0] ?? 'public';
      const args = ((owa.objargs ?? []) as AstNode[]).map((a) => deparse(a)).join(', ');
      return `ALTER ${rt === 'OBJECT_FUNCTION' ? 'FUNCTION' : 'PROCEDURE'} ${quoteIdent(s)}.${newName}(${args}) RENAME TO ${quoteIdent(old)}`;
    }
    case 'OBJECT_TYPE':
    case 'OBJECT_DOMAIN': {
      const parts = obj?.List ? names(obj.List.items) : obj?.TypeName ? names(obj.TypeName.names) : [];
      const old = parts.pop();
      if (!old) return null;
      const s = parts.pop() ?? schema.searchPath[0] ?? 'public';
      return `ALTER ${rt === 'OBJECT_TYPE' ? 'TYPE' : 'DOMAIN'} ${quoteIdent(s)}.${newName} RENAME TO ${quoteIdent(old)}`;
    }
    case 'OBJECT_SCHEMA':
      return `ALTER SCHEMA ${newName} RENAME TO ${quoteIdent(String(b.subname))}`;
    case 'OBJECT_SEQUENCE':
    case 'OBJECT_MATVIEW':
    case 'OBJECT_FOREIGN_TABLE': {
      const word = { OBJECT_SEQUENCE: 'SEQUENCE', OBJECT_MATVIEW: 'MATERIALIZED VIEW', OBJECT_FOREIGN_TABLE: 'FOREIGN TABLE' }[rt];
      return `ALTER ${word} ${quoteIdent(schemaOf)}.${newName} RENAME TO ${quoteIdent(String(b.relation.relname))}`;
    }
    case 'OBJECT_TRIGGER':
      return `ALTER TRIGGER ${newName} ON ${quoteQualified(rel)} RENAME TO ${quoteIdent(String(b.subname))}`;
    case 'OBJECT_POLICY':
      return `ALTER POLICY ${newName} ON ${quoteQualified(rel)} RENAME TO ${quoteIdent(String(b.subname))}`;
    case 'OBJECT_RULE':
      return `ALTER RULE ${newName} ON ${quoteQualified(rel)} RENAME TO ${quoteIdent(String(b.subname))}`;
    default:
      return null;
  }
}

function inverse(stmt: ParsedStatement, f: StatementFacts, schema: SchemaIndex, ctx: RollbackContext): Inverse {
  const kind = nodeKind(stmt.stmt);
  const b = nodeBody(stmt.stmt);
  switch (kind) {
    case 'CreateStmt':
      if (b.if_not_exists && schema.table(f.table)) return alreadyThere(`table ${f.table}`);
      return { sql: `DROP TABLE ${quoteQualified(f.table)}`, reversible: true, warning: null };
    case 'IndexStmt': {
      const absorbed = ctx.absorption.absorbed.get(stmt.index);
      if (absorbed) return { sql: `-- nothing to undo: ${absorbed}`, reversible: true, warning: null };
      if (!b.idxname) return irreversible('the index has no name; PostgreSQL chooses one, so drop it by the name it got');
      if (b.if_not_exists && schema.tableOfIndex(`${rangeVarName(b.relation).split('.')[0]}.${b.idxname}`)) return alreadyThere(`index ${String(b.idxname)}`);
      const schemaName = b.relation?.schemaname ? `${quoteIdent(String(b.relation.schemaname))}.` : '';
      const drop = `DROP INDEX ${b.concurrent ? 'CONCURRENTLY ' : ''}${schemaName}${quoteIdent(String(b.idxname))}`;
      // Partition indexes of the snapshot that this one took over go with it: built again.
      const rebuild = ctx.absorption.recreate.get(stmt.index) ?? [];
      if (!rebuild.length) return { sql: drop, reversible: true, warning: null };
      return {
        sql: [drop, ...rebuild].join(';\n'),
        reversible: true,
        warning: `${rebuild.length} partition index(es) attached by the statement are dropped with it and rebuilt`,
      };
    }
    case 'ViewStmt': {
      const v = schema.table(f.table);
      if (b.replace && v?.view_definition)
        return { sql: `CREATE OR REPLACE VIEW ${quoteQualified(f.table)} AS ${v.view_definition.trim().replace(/;$/, '')}`, reversible: true, warning: null };
      return { sql: `DROP VIEW ${quoteQualified(f.table)}`, reversible: true, warning: null };
    }
    case 'CreateTableAsStmt':
      if (b.if_not_exists && schema.table(f.table)) return alreadyThere(`relation ${f.table}`);
      return { sql: `DROP ${b.objtype === 'OBJECT_MATVIEW' ? 'MATERIALIZED VIEW' : 'TABLE'} ${quoteQualified(f.table)}`, reversible: true, warning: null };
    case 'CreateEnumStmt':
      return { sql: `DROP TYPE ${quoteQualified(qualify(names(b.typeName).join('.')))}`, reversible: true, warning: null };
    case 'CreateDomainStmt':
      return { sql: `DROP DOMAIN ${quoteQualified(qualify(names(b.domainname).join('.')))}`, reversible: true, warning: null };
    case 'CompositeTypeStmt':
      return { sql: `DROP TYPE ${quoteQualified(rangeVarName(b.typevar))}`, reversible: true, warning: null };
    case 'CreateRangeStmt':
      // The range's multirange type (PostgreSQL 14+) goes with it.
      return { sql: `DROP TYPE ${quoteQualified(qualify(names(b.typeName).join('.')))}`, reversible: true, warning: null };
    case 'AlterDomainStmt':
      return inverseAlterDomain(b, schema);
    case 'CreateSeqStmt':
      if (b.if_not_exists && schema.snapshot.sequences.some((q) => `${q.schema}.${q.name}` === rangeVarName(b.sequence)))
        return alreadyThere(`sequence ${rangeVarName(b.sequence)}`);
      return { sql: `DROP SEQUENCE ${quoteQualified(rangeVarName(b.sequence))}`, reversible: true, warning: null };
    case 'CreateSchemaStmt':
      if (b.if_not_exists && (schema.snapshot.schemas.includes(String(b.schemaname)) || schema.snapshot.model?.schemas.some((x) => x.name === b.schemaname)))
        return alreadyThere(`schema ${String(b.schemaname)}`);
      return { sql: `DROP SCHEMA ${quoteIdent(String(b.schemaname))}`, reversible: true, warning: null };
    case 'CreateExtensionStmt':
      if (b.if_not_exists && schema.snapshot.extensions.some((e) => e.name === b.extname)) return alreadyThere(`extension ${String(b.extname)}`);
      return { sql: `DROP EXTENSION ${quoteIdent(String(b.extname))}`, reversible: true, warning: null };
    case 'CreateFunctionStmt': {
      // A routine this migration created before: its first text is what it goes back to.
      const earlier = ctx.routineBefore.get(stmt.index);
      if (earlier) return { sql: earlier, reversible: true, warning: null };
      const previous = previousRoutine(b, schema);
      if (previous) return { sql: previous, reversible: true, warning: null };
      return { sql: dropRoutineSql(b, schema), reversible: true, warning: null };
    }
    case 'CreateTrigStmt': {
      const previous = b.replace ? previousTrigger(f.table, String(b.trigname), schema) : null;
      if (previous) return { sql: previous, reversible: true, warning: null };
      return { sql: `DROP TRIGGER ${quoteIdent(String(b.trigname))} ON ${quoteQualified(f.table)}`, reversible: true, warning: null };
    }
    case 'RuleStmt': {
      const table = rangeVarName(b.relation);
      const previous = b.replace ? previousRule(table, String(b.rulename), schema) : null;
      if (previous) return { sql: previous, reversible: true, warning: null };
      return { sql: `DROP RULE ${quoteIdent(String(b.rulename))} ON ${quoteQualified(table)}`, reversible: true, warning: null };
    }
    case 'CommentStmt': {
      const previous = previousComment(b, schema);
      if (previous) return { sql: previous, reversible: true, warning: null };
      if (ctx.createdEarlier(stmt.index, b))
        return { sql: `${NOTHING}: the object is created by this migration, and its undo drops the comment with it`, reversible: true, warning: null };
      return irreversible('the previous comment is not in the snapshot; set it back by hand');
    }
    case 'AlterSeqStmt':
      return inverseAlterSequence(
        b,
        schema,
        ctx.createdEarlier(stmt.index, { objtype: 'OBJECT_SEQUENCE', object: { String: { sval: String(b.sequence?.relname ?? '') } } }),
      );
    case 'CreatePolicyStmt':
      return { sql: `DROP POLICY ${quoteIdent(String(b.policy_name))} ON ${quoteQualified(f.table)}`, reversible: true, warning: null };
    case 'AlterTableStmt': {
      if (b.objtype === 'OBJECT_INDEX' && ctx.absorption.attachUndoneBy.has(stmt.index)) {
        const by = ctx.absorption.attachUndoneBy.get(stmt.index);
        return by === null || by === undefined
          ? irreversible(
              'PostgreSQL cannot detach an index partition; to undo it, drop the partitioned index and create it again without this partition index (or drop the partition index itself)',
            )
          : { sql: `${NOTHING}: the undo of statement ${by} drops the partitioned index with its attached partitions`, reversible: true, warning: null };
      }
      if (f.statement_type.startsWith('ALTER_TABLE') === false) return irreversible(`${f.statement_type} has no automatic inverse`);
      const parts = [...f.subcommands].reverse().map((c) => inverseSubcommand(f.table, c, schema, ctx, stmt.index));
      const sqls = parts.map((p) => p.sql).filter((s): s is string => !!s && s !== NOTHING);
      const warnings = parts.map((p) => p.warning).filter((w): w is string => !!w);
      if (parts.some((p) => p.sql === null)) return { sql: sqls.length ? sqls.join(';\n') : null, reversible: false, warning: warnings.join('; ') };
      return {
        sql: sqls.length ? sqls.join(';\n') : NOTHING,
        reversible: parts.every((p) => p.reversible),
        warning: warnings.length ? warnings.join('; ') : null,
      };
    }
    case 'RenameStmt': {
      const rt = String(b.renameType);
      const newName = String(b.newname);
      const rel = rangeVarName(b.relation);
      const schemaOf = rel.split('.')[0]!;
      const sub = b.subname ? String(b.subname) : '';
      if (rt === 'OBJECT_COLUMN')
        return { sql: `ALTER TABLE ${quoteQualified(rel)} RENAME COLUMN ${quoteIdent(newName)} TO ${quoteIdent(sub)}`, reversible: true, warning: null };
      if (rt === 'OBJECT_TABLE')
        return {
          sql: `ALTER TABLE ${quoteQualified(`${schemaOf}.${newName}`)} RENAME TO ${quoteIdent(String(b.relation.relname))}`,
          reversible: true,
          warning: null,
        };
      if (rt === 'OBJECT_VIEW')
        return {
          sql: `ALTER VIEW ${quoteQualified(`${schemaOf}.${newName}`)} RENAME TO ${quoteIdent(String(b.relation.relname))}`,
          reversible: true,
          warning: null,
        };
      if (rt === 'OBJECT_INDEX')
        return {
          sql: `ALTER INDEX ${quoteQualified(`${schemaOf}.${newName}`)} RENAME TO ${quoteIdent(String(b.relation.relname))}`,
          reversible: true,
          warning: null,
        };
      if (rt === 'OBJECT_TABCONSTRAINT')
        return { sql: `ALTER TABLE ${quoteQualified(rel)} RENAME CONSTRAINT ${quoteIdent(newName)} TO ${quoteIdent(sub)}`, reversible: true, warning: null };
      const renamed = renameBack(b, schema);
      if (renamed) return { sql: renamed, reversible: true, warning: null };
      return irreversible(`${f.statement_type} has no automatic inverse`);
    }
    case 'DropStmt': {
      const rt = String(b.removeType);
      if (rt === 'OBJECT_TABLE') {
        const t = schema.table(f.table);
        if (!t) return irreversible(`table ${f.table} is not in the snapshot; it cannot be recreated`);
        const sql = [createTableDdl(t), ...indexDdls(t), ...foreignKeyDdls(t)].join(';\n');
        return { sql, reversible: false, warning: `table ${f.table} is recreated empty: its data is not restored (restore from a backup)` };
      }
      if (rt === 'OBJECT_INDEX') {
        const table = schema.table(f.table);
        const ixName = objectName(b).split('.').pop();
        const ix = table?.indexes.find((i) => i.name === ixName);
        if (!ix) return irreversible(`index ${ixName} is not in the snapshot`);
        return { sql: indexWithPartitionsDdl(schema.snapshot, table!.schema, ix, !!b.concurrent).join(';\n'), reversible: true, warning: null };
      }
      if (rt === 'OBJECT_VIEW' || rt === 'OBJECT_MATVIEW') {
        const v = schema.table(objectName(b));
        if (!v?.view_definition) return irreversible('the view definition is not in the snapshot');
        const mat = rt === 'OBJECT_MATVIEW';
        return {
          sql: `CREATE ${mat ? 'MATERIALIZED VIEW' : 'VIEW'} ${quoteQualified(objectName(b))} AS ${v.view_definition.trim().replace(/;$/, '')}`,
          reversible: !mat,
          warning: mat ? 'the materialized view is recreated and refilled from its query' : null,
        };
      }
      if (rt === 'OBJECT_FUNCTION' || rt === 'OBJECT_PROCEDURE' || rt === 'OBJECT_ROUTINE' || rt === 'OBJECT_TRIGGER') return droppedRoutines(b, schema);
      if (rt === 'OBJECT_TYPE') {
        const n = objectName(b);
        const e = schema.snapshot.enums.find((x) => `${x.schema}.${x.name}` === n);
        if (e)
          return {
            sql: `CREATE TYPE ${quoteQualified(n)} AS ENUM (${e.values.map(quoteLiteral).join(', ')})`,
            reversible: !b.behavior || b.behavior !== 'DROP_CASCADE',
            warning: b.behavior === 'DROP_CASCADE' ? 'columns dropped by CASCADE are not restored' : null,
          };
      }
      return irreversible(`${f.statement_type} cannot be reversed automatically`);
    }
    case 'TruncateStmt':
    case 'DeleteStmt':
    case 'UpdateStmt':
    case 'InsertStmt':
    case 'MergeStmt':
      return irreversible(`${f.statement_type} changes data; it cannot be reversed automatically (restore from a backup or write a compensating statement)`);
    case 'AlterEnumStmt':
      return b.oldVal
        ? {
            sql: `ALTER TYPE ${quoteQualified(qualify(names(b.typeName).join('.')))} RENAME VALUE ${quoteLiteral(String(b.newVal))} TO ${quoteLiteral(String(b.oldVal))}`,
            reversible: true,
            warning: null,
          }
        : irreversible(enumValueManualUndo(b, schema));
    case 'VariableSetStmt':
    case 'TransactionStmt':
    case 'SelectStmt':
    case 'VacuumStmt':
    case 'LockStmt':
    case 'ReindexStmt':
      return { sql: NOTHING, reversible: true, warning: null };
    default:
      return irreversible(`${f.statement_type} has no automatic inverse`);
  }
}

/** The rollback step of one statement (spec section 2). */
export function rollbackStep(
  stmt: ParsedStatement,
  f: StatementFacts,
  schema: SchemaIndex,
  ctx: RollbackContext = NO_CONTEXT,
): RollbackStep & { non_transactional: boolean } {
  const inv = inverse(stmt, f, schema, ctx);
  return {
    statement_index: stmt.index,
    sql: inv.sql ?? `-- statement ${stmt.index} (${f.statement_type}) cannot be reversed automatically`,
    reversible: inv.reversible,
    warning: inv.warning,
    non_transactional: /\bCONCURRENTLY\b/i.test(inv.sql ?? ''),
  };
}
