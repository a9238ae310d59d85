import type { ParsedStatement } from './parse-sql';
import { type Finding, type StatementKind, worseKind } from './guardrail';
import { kindOfFunctionName } from './function-policy';
import { parseTreeSync } from '../pg/parser';

/** A function called somewhere in the statement; `schema` when the call is qualified. */
export interface FunctionRef {
  schema: string | null;
  name: string;
}

/** The statement's kind, why, and the names the catalog must still be asked about. */
export interface Classification {
  kind: StatementKind;
  /** Display name of the statement, e.g. `SELECT`, `DROP TABLE`, `EXPLAIN ANALYZE`. */
  label: string;
  findings: Finding[];
  functions: FunctionRef[];
  operators: string[];
  /** Relation names the tree reads or writes (views among them hide functions). */
  relations: string[];
  /**
   * False when the tree holds nothing the catalog could define (no function, operator, type,
   * relation or sub-query: `SELECT 1`), so no catalog look-up is needed.
   */
  reachesCatalog: boolean;
}

/** Node types that name nothing user-definable: a statement made only of these needs no catalog look-up. */
const CATALOG_FREE_NODES = new Set(['SelectStmt', 'ResTarget', 'A_Const', 'Integer', 'Float', 'String', 'Boolean', 'BitString', 'VariableShowStmt', 'DefElem']);

/** Schemas of the system catalogs: writing to them is not data change but surgery on the server's own state. */
const CATALOG_SCHEMAS = new Set(['pg_catalog', 'pg_toast', 'information_schema']);

/** The DML target a RangeVar names is a system catalog (an unqualified `pg_*` name resolves to pg_catalog first). */
function isCatalogTarget(relation: unknown): string | null {
  const rv = asRecord(relation);
  if (!rv) return null;
  const schema = typeof rv.schemaname === 'string' ? rv.schemaname.toLowerCase() : null;
  const name = String(rv.relname ?? '');
  if (schema ? CATALOG_SCHEMAS.has(schema) : name.toLowerCase().startsWith('pg_')) return schema ? `${schema}.${name}` : name;
  return null;
}

const DML_NODES: Record<string, string> = { InsertStmt: 'INSERT', UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE', MergeStmt: 'MERGE' };

/** Statements that change the schema or privileges and can run inside a transaction block. */
const DDL_NODES: Record<string, string> = {
  CreateStmt: 'CREATE TABLE',
  AlterTableStmt: 'ALTER TABLE',
  IndexStmt: 'CREATE INDEX',
  ViewStmt: 'CREATE VIEW',
  CreateSeqStmt: 'CREATE SEQUENCE',
  AlterSeqStmt: 'ALTER SEQUENCE',
  CreateFunctionStmt: 'CREATE FUNCTION',
  AlterFunctionStmt: 'ALTER FUNCTION',
  RenameStmt: 'RENAME',
  CommentStmt: 'COMMENT',
  GrantStmt: 'GRANT/REVOKE',
  CreateSchemaStmt: 'CREATE SCHEMA',
  CreateEnumStmt: 'CREATE TYPE',
  AlterEnumStmt: 'ALTER TYPE',
  CompositeTypeStmt: 'CREATE TYPE',
  CreateRangeStmt: 'CREATE TYPE',
  CreateDomainStmt: 'CREATE DOMAIN',
  AlterDomainStmt: 'ALTER DOMAIN',
  DefineStmt: 'CREATE',
  TruncateStmt: 'TRUNCATE',
  CreateTrigStmt: 'CREATE TRIGGER',
  RuleStmt: 'CREATE RULE',
  CreatePolicyStmt: 'CREATE POLICY',
  AlterPolicyStmt: 'ALTER POLICY',
  CreateTableAsStmt: 'CREATE TABLE AS',
  RefreshMatViewStmt: 'REFRESH MATERIALIZED VIEW',
  AlterObjectSchemaStmt: 'ALTER ... SET SCHEMA',
  AlterOwnerStmt: 'ALTER ... OWNER',
  CreateStatsStmt: 'CREATE STATISTICS',
  AlterStatsStmt: 'ALTER STATISTICS',
  AlterDefaultPrivilegesStmt: 'ALTER DEFAULT PRIVILEGES',
  CreateExtensionStmt: 'CREATE EXTENSION',
  AlterExtensionStmt: 'ALTER EXTENSION',
  AlterExtensionContentsStmt: 'ALTER EXTENSION',
  CreateForeignTableStmt: 'CREATE FOREIGN TABLE',
  CreateCastStmt: 'CREATE CAST',
  CreateOpClassStmt: 'CREATE OPERATOR CLASS',
  CreateOpFamilyStmt: 'CREATE OPERATOR FAMILY',
  AlterOpFamilyStmt: 'ALTER OPERATOR FAMILY',
  CreateConversionStmt: 'CREATE CONVERSION',
  AlterCollationStmt: 'ALTER COLLATION',
  AlterTypeStmt: 'ALTER TYPE',
  AlterOperatorStmt: 'ALTER OPERATOR',
  CreateTransformStmt: 'CREATE TRANSFORM',
  AlterTSConfigurationStmt: 'ALTER TEXT SEARCH CONFIGURATION',
  AlterTSDictionaryStmt: 'ALTER TEXT SEARCH DICTIONARY',
  CreateAmStmt: 'CREATE ACCESS METHOD',
  SecLabelStmt: 'SECURITY LABEL',
  AlterTableMoveAllStmt: 'ALTER TABLE ALL IN TABLESPACE',
};

/** Everything else a statement can be, named for the violation message; unknown nodes are `other` too. */
const OTHER_NODES: Record<string, string> = {
  TransactionStmt: 'transaction control',
  CopyStmt: 'COPY',
  DoStmt: 'DO',
  CallStmt: 'CALL',
  ListenStmt: 'LISTEN',
  UnlistenStmt: 'UNLISTEN',
  NotifyStmt: 'NOTIFY',
  PrepareStmt: 'PREPARE',
  ExecuteStmt: 'EXECUTE',
  DeallocateStmt: 'DEALLOCATE',
  LockStmt: 'LOCK',
  VacuumStmt: 'VACUUM/ANALYZE',
  ClusterStmt: 'CLUSTER',
  ReindexStmt: 'REINDEX',
  CheckPointStmt: 'CHECKPOINT',
  LoadStmt: 'LOAD',
  DiscardStmt: 'DISCARD',
  AlterSystemStmt: 'ALTER SYSTEM',
  VariableSetStmt: 'SET',
  DeclareCursorStmt: 'DECLARE CURSOR',
  FetchStmt: 'FETCH/MOVE',
  ClosePortalStmt: 'CLOSE',
  CreatedbStmt: 'CREATE DATABASE',
  DropdbStmt: 'DROP DATABASE',
  AlterDatabaseStmt: 'ALTER DATABASE',
  AlterDatabaseSetStmt: 'ALTER DATABASE',
  CreateRoleStmt: 'CREATE ROLE',
  AlterRoleStmt: 'ALTER ROLE',
  AlterRoleSetStmt: 'ALTER ROLE',
  DropRoleStmt: 'DROP ROLE',
  GrantRoleStmt: 'GRANT ROLE',
  CreateTableSpaceStmt: 'CREATE TABLESPACE',
  DropTableSpaceStmt: 'DROP TABLESPACE',
  CreateSubscriptionStmt: 'CREATE SUBSCRIPTION',
  CreatePublicationStmt: 'CREATE PUBLICATION',
  CreateEventTrigStmt: 'CREATE EVENT TRIGGER',
  CreatePLangStmt: 'CREATE LANGUAGE',
  CreateFdwStmt: 'CREATE FOREIGN DATA WRAPPER',
  CreateForeignServerStmt: 'CREATE SERVER',
  CreateUserMappingStmt: 'CREATE USER MAPPING',
  AlterUserMappingStmt: 'ALTER USER MAPPING',
  ImportForeignSchemaStmt: 'IMPORT FOREIGN SCHEMA',
  DropOwnedStmt: 'DROP OWNED',
  ReassignOwnedStmt: 'REASSIGN OWNED',
  ConstraintsSetStmt: 'SET CONSTRAINTS',
};

const TRANSACTION_KINDS: Record<string, string> = {
  TRANS_STMT_BEGIN: 'BEGIN',
  TRANS_STMT_START: 'START TRANSACTION',
  TRANS_STMT_COMMIT: 'COMMIT',
  TRANS_STMT_ROLLBACK: 'ROLLBACK',
  TRANS_STMT_SAVEPOINT: 'SAVEPOINT',
  TRANS_STMT_RELEASE: 'RELEASE SAVEPOINT',
  TRANS_STMT_ROLLBACK_TO: 'ROLLBACK TO SAVEPOINT',
  TRANS_STMT_PREPARE: 'PREPARE TRANSACTION',
  TRANS_STMT_COMMIT_PREPARED: 'COMMIT PREPARED',
  TRANS_STMT_ROLLBACK_PREPARED: 'ROLLBACK PREPARED',
};

const LOCK_STRENGTH: Record<string, string> = {
  LCS_FORUPDATE: 'FOR UPDATE',
  LCS_FORNOKEYUPDATE: 'FOR NO KEY UPDATE',
  LCS_FORSHARE: 'FOR SHARE',
  LCS_FORKEYSHARE: 'FOR KEY SHARE',
};

const asRecord = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

const stringsOf = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((n) => (asRecord(asRecord(n)?.String)?.sval as string | undefined) ?? '').filter((s) => s !== '') : [];

/** `EXPLAIN (ANALYZE)`, `EXPLAIN ANALYZE`, `(ANALYZE true)` run the statement; `(ANALYZE false|off|0)` does not. */
function explainRuns(node: Record<string, unknown>): boolean {
  const options = Array.isArray(node.options) ? node.options : [];
  let runs = false;
  for (const o of options) {
    const def = asRecord(asRecord(o)?.DefElem);
    if (def?.defname !== 'analyze') continue;
    const arg = asRecord(def.arg);
    if (!arg) {
      runs = true;
      continue;
    }
    const c = asRecord(arg.A_Const) ?? asRecord(arg.Boolean) ?? arg;
    const text = JSON.stringify(c).toLowerCase();
    // Anything we do not recognise as "false" counts as running: the safe side.
    runs = !/"boolval":\{\}|"boolval":false|"sval":"(false|off|no|0)"|"ival":\{\}|"ival":0\b/.test(text);
  }
  return runs;
}

function labelOf(type: string, node: Record<string, unknown>): string {
  if (type === 'ExplainStmt') return explainRuns(node) ? 'EXPLAIN ANALYZE' : 'EXPLAIN';
  if (type === 'DropStmt')
    return `DROP ${String(node.removeType ?? 'OBJECT')
      .replace(/^OBJECT_/, '')
      .replace(/_/g, ' ')}`;
  if (type === 'TransactionStmt') return TRANSACTION_KINDS[String(node.kind)] ?? 'transaction control';
  if (type === 'VariableSetStmt') {
    const name = String(node.name ?? '').toUpperCase();
    if (name === 'TRANSACTION' || name === 'SESSION CHARACTERISTICS') return `SET ${name}`;
    return node.kind === 'VAR_RESET' || node.kind === 'VAR_RESET_ALL' ? 'RESET' : 'SET';
  }
  return DML_NODES[type] ?? DDL_NODES[type] ?? OTHER_NODES[type] ?? type.replace(/Stmt$/, '');
}

/** The kind a statement has by its own node type, before looking inside it. */
function ownKind(type: string, node: Record<string, unknown>): StatementKind {
  if (type === 'SelectStmt') return node.intoClause ? 'ddl' : 'select';
  if (type === 'VariableShowStmt' || type === 'ExplainStmt') return 'select';
  if (DML_NODES[type]) return 'dml';
  if (type === 'DropStmt' || DDL_NODES[type]) return 'ddl';
  return 'other';
}

/**
 * Classifies one statement by walking its WHOLE parse tree: the top node gives the base kind;
 * every nested data-modifying statement, row-locking clause, SELECT INTO and function call can
 * raise it. Function calls whose kind depends on the catalog are returned for a volatility look-up.
 */
export function classifyStatement(statement: Pick<ParsedStatement, 'type' | 'node'>): Classification {
  const findings: Finding[] = [];
  const functions: FunctionRef[] = [];
  const operators = new Set<string>();
  const relations = new Set<string>();
  const seenFunctions = new Set<string>();
  let reachesCatalog = false;

  const top = statement.type;
  const label = labelOf(top, statement.node);
  let kind = ownKind(top, statement.node);
  findings.push({ kind, what: label });

  const add = (k: StatementKind, what: string) => {
    findings.push({ kind: k, what });
    kind = worseKind(kind, k);
  };

  /** `executes` is false below a plain EXPLAIN: statements there are planned, never run. */
  const walk = (value: unknown, executes: boolean, isTop: boolean): void => {
    if (Array.isArray(value)) {
      for (const v of value) walk(v, executes, false);
      return;
    }
    const obj = asRecord(value);
    if (!obj) return;
    for (const [key, child] of Object.entries(obj)) {
      const node = asRecord(child);
      if (node && /^[A-Z]/.test(key)) {
        visitNode(key, node, executes, isTop);
      } else {
        walk(child, executes, false);
      }
    }
  };

  const visitNode = (type: string, node: Record<string, unknown>, executes: boolean, isTop: boolean): void => {
    let childExecutes = executes;
    if (!CATALOG_FREE_NODES.has(type)) reachesCatalog = true;
    if (DML_NODES[type]) {
      const target = isCatalogTarget(node.relation);
      if (target) add('other', `${DML_NODES[type]} on system catalog ${target}`);
    }
    if (type === 'RangeVar' && typeof node.relname === 'string') relations.add(node.relname);
    if (type === 'CreateFunctionStmt') {
      for (const f of createdFunctionBodyFindings(node)) add(f.kind, f.what);
    }
    if (!isTop && executes) {
      if (DML_NODES[type]) add('dml', `data-modifying statement inside the query (${DML_NODES[type]})`);
      else if (type !== 'SelectStmt' && (DDL_NODES[type] || OTHER_NODES[type] || type === 'DropStmt')) add(ownKind(type, node), labelOf(type, node));
    }
    if (type === 'SelectStmt' && executes) {
      if (node.intoClause) add('ddl', 'SELECT INTO (creates a table)');
      if (Array.isArray(node.lockingClause) && node.lockingClause.length > 0) {
        const strength = String(asRecord(asRecord(node.lockingClause[0])?.LockingClause)?.strength ?? '');
        add('dml', `SELECT ... ${LOCK_STRENGTH[strength] ?? 'FOR UPDATE/SHARE'} (row locks)`);
      }
    }
    if (type === 'ExplainStmt') {
      const runs = explainRuns(node);
      childExecutes = executes && runs;
      const inner = asRecord(node.query);
      if (inner && childExecutes) {
        const [innerType, innerNode] = Object.entries(inner)[0] as [string, Record<string, unknown>];
        const innerKind = ownKind(innerType, innerNode);
        if (innerKind !== 'select') add(innerKind, `EXPLAIN ANALYZE ${labelOf(innerType, innerNode)} (runs the statement)`);
      }
      walkChildren(node, childExecutes);
      return;
    }
    if (type === 'FuncCall') {
      const parts = stringsOf(node.funcname);
      const name = parts[parts.length - 1] ?? '';
      const schema = parts.length > 1 ? parts[parts.length - 2]! : null;
      const byName = kindOfFunctionName(name);
      if (byName) add(byName, `function ${parts.join('.')}()`);
      const key = `${schema ?? ''}.${name}`;
      if (!seenFunctions.has(key)) {
        seenFunctions.add(key);
        functions.push({ schema, name });
      }
    }
    if (type === 'SubLink') {
      const op = stringsOf(node.operName).pop();
      if (op) operators.add(op);
    }
    if (type === 'A_Expr') {
      const op = stringsOf(node.name).pop();
      if (op) operators.add(op);
    }
    walkChildren(node, childExecutes);
  };

  const walkChildren = (node: Record<string, unknown>, executes: boolean) => {
    for (const child of Object.values(node)) walk(child, executes, false);
  };

  visitNode(top, statement.node, true, true);
  return { kind, label, findings, functions, operators: [...operators], relations: [...relations], reachesCatalog };
}

// Bodies of functions: classified statement by statement with classifyStatement above, which in
// turn looks into the bodies of functions a statement creates; one module, as the recursion is one.
/** What a function's body does, as far as its text tells. */
export interface BodyClassification {
  findings: Finding[];
  /** Functions the body calls by name: resolved in the catalog in turn. */
  functions: FunctionRef[];
  operators: string[];
  /** Relations it names (views hide functions too). */
  relations: string[];
  /** Why the body cannot be read (dynamic SQL, a compiled language), or null. */
  opaque: string | null;
}

/**
 * Words of a procedural body and the kind of statement they start. A word scan, not a parse
 * (the project's parser has no PL/pgSQL grammar): it errs on the side of refusing, since a
 * comment or a string saying "update" counts as an UPDATE. String contents are scanned too, so
 * `EXECUTE 'COPY ...'` is seen.
 */
const WORD_KINDS: Record<string, StatementKind> = {
  insert: 'dml',
  update: 'dml',
  delete: 'dml',
  merge: 'dml',
  create: 'ddl',
  drop: 'ddl',
  alter: 'ddl',
  truncate: 'ddl',
  grant: 'ddl',
  revoke: 'ddl',
  comment: 'ddl',
  refresh: 'ddl',
  reassign: 'ddl',
  copy: 'other',
  program: 'other',
  listen: 'other',
  notify: 'other',
  vacuum: 'other',
  cluster: 'other',
  reindex: 'other',
  checkpoint: 'other',
  commit: 'other',
  rollback: 'other',
  savepoint: 'other',
  lock: 'other',
  discard: 'other',
  load: 'other',
};

/** PL/pgSQL (and other procedural) text: statement words, called names, operators, dynamic SQL. */
export function scanProceduralBody(text: string, where: string): BodyClassification {
  const lower = text.toLowerCase();
  const findings: Finding[] = [];
  const seenKinds = new Set<string>();
  for (const m of lower.matchAll(/[a-z_][a-z0-9_$]*/g)) {
    const word = m[0];
    const k = WORD_KINDS[word];
    if (k && !seenKinds.has(word)) {
      seenKinds.add(word);
      findings.push({ kind: k, what: `${word.toUpperCase()} in ${where}` });
    }
  }
  const names = new Set<string>();
  for (const m of lower.matchAll(/([a-z_][a-z0-9_$]*)\s*\(/g)) names.add(m[1]!);
  for (const name of names) {
    const byName = kindOfFunctionName(name);
    if (byName) findings.push({ kind: byName, what: `function ${name}() in ${where}` });
  }
  const operators = new Set<string>();
  for (const m of text.matchAll(/[+\-*/<>=~!@#%^&|`?]+/g)) operators.add(m[0]);
  const dynamic = /\bexecute\b/.test(lower);
  return {
    findings,
    functions: [...names].map((name) => ({ schema: null, name })),
    operators: [...operators],
    relations: [],
    opaque: dynamic ? `${where} runs dynamic SQL (EXECUTE)` : null,
  };
}

/** Statements of an SQL-language body, each classified like a top-level statement. */
export function classifySqlBody(text: string, where: string): BodyClassification {
  let stmts: Array<{ stmt?: Record<string, unknown> }>;
  try {
    stmts = (parseTreeSync(text) as { stmts?: Array<{ stmt?: Record<string, unknown> }> }).stmts ?? [];
  } catch {
    // Text the parser refuses (it may be for another server version): read it word by word.
    return scanProceduralBody(text, where);
  }
  const out: BodyClassification = { findings: [], functions: [], operators: [], relations: [], opaque: null };
  for (const raw of stmts) {
    if (!raw.stmt) continue;
    const [type, node] = Object.entries(raw.stmt)[0] as [string, Record<string, unknown>];
    mergeStatement(out, classifyStatement({ type, node }), where);
  }
  return out;
}

function mergeStatement(out: BodyClassification, c: Classification, where: string): void {
  for (const f of c.findings) if (f.kind !== 'select') out.findings.push({ kind: f.kind, what: `${f.what} in ${where}` });
  out.functions.push(...c.functions);
  out.operators.push(...c.operators);
  out.relations.push(...c.relations);
}

/** Statements of a BEGIN ATOMIC body, from the function's definition (`pg_get_functiondef`). */
export function classifyAtomicDefinition(definition: string, where: string): BodyClassification {
  let stmts: Array<{ stmt?: Record<string, unknown> }>;
  try {
    stmts = (parseTreeSync(definition) as { stmts?: Array<{ stmt?: Record<string, unknown> }> }).stmts ?? [];
  } catch {
    return scanProceduralBody(definition, where);
  }
  const out: BodyClassification = { findings: [], functions: [], operators: [], relations: [], opaque: null };
  const create = asRecord(stmts[0]?.stmt?.CreateFunctionStmt);
  const outer = asRecord(asRecord(create?.sql_body)?.List)?.items;
  for (const block of Array.isArray(outer) ? outer : []) {
    const inner = asRecord(asRecord(block)?.List)?.items;
    for (const stmt of Array.isArray(inner) ? inner : [block]) {
      const entry = asRecord(stmt) ? Object.entries(stmt as Record<string, unknown>)[0] : undefined;
      if (!entry || entry[0] === 'List') continue;
      mergeStatement(out, classifyStatement({ type: entry[0], node: entry[1] as Record<string, unknown> }), where);
    }
  }
  return out;
}

/** A body of `language` with source `source` (prosrc, or the definition of a BEGIN ATOMIC body). */
export function classifyFunctionBody(language: string, source: string, where: string): BodyClassification {
  if (language === 'sql') return classifySqlBody(source, where);
  if (language === 'plpgsql') return scanProceduralBody(source, where);
  return { findings: [], functions: [], operators: [], relations: [], opaque: `${where} is written in ${language}, which cannot be read` };
}

/**
 * Findings for a CREATE FUNCTION / PROCEDURE statement's own body: only what no level allows
 * (`other`), so an agent cannot plant, for example, a `COPY ... TO PROGRAM` wrapper to call later.
 * What the body does otherwise is judged when it is called.
 */
export function createdFunctionBodyFindings(node: Record<string, unknown>): Finding[] {
  let language = 'sql';
  let body: string | null = null;
  for (const o of Array.isArray(node.options) ? node.options : []) {
    const def = asRecord(asRecord(o)?.DefElem);
    if (!def) continue;
    if (def.defname === 'language') language = String(asRecord(asRecord(def.arg)?.String)?.sval ?? language).toLowerCase();
    if (def.defname === 'as') {
      const items = asRecord(asRecord(def.arg)?.List)?.items;
      const first = Array.isArray(items) ? asRecord(asRecord(items[0])?.String)?.sval : undefined;
      if (typeof first === 'string') body = first;
    }
  }
  if (body === null) return [];
  const c = classifyFunctionBody(language, body, 'the body of the created function');
  let worst: StatementKind = 'select';
  for (const f of c.findings) worst = worseKind(worst, f.kind);
  return worst === 'other' ? c.findings.filter((f) => f.kind === 'other') : [];
}
