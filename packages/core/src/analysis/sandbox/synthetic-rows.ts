import { quoteIdent, quoteLiteral, quoteQualified } from '../../pg/quote';
import type { SchemaSnapshot, TableInfo } from '../../introspection/schema-snapshot';
import { qualifiedName } from '../../introspection/schema-snapshot';
import type { SandboxSession } from './sandbox-session';
import { effectiveTable, partitionKeyValues, partitionsByParent, ancestorsOf } from './partition-rows';
import { SqlExpr } from './sql-expr';
import { tablesInDependencyOrder } from './table-order';
import { checkedValues, syntheticValue, type ValueContext, valueContext } from './synthetic-values';

type Row = Record<string, unknown>;

export interface SyntheticRowsResult {
  inserted: number;
  /** Tables that got fewer rows than asked, with the reason. */
  failures: { table: string; error: string }[];
}

/** Value of foreign key column `childColumn` of row `i`: `column` of a parent row already inserted, or null when there is none. */
type ParentValue = (parent: string, column: string, i: number, childColumn: string) => unknown;

/** Column values of synthetic row `i` of `t`; foreign keys point at rows already inserted in the parent. */
function rowValues(t: TableInfo, i: number, parentValue: ParentValue, ctx: ValueContext, nullOptional: boolean, fill?: Fill): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const self = qualifiedName(t);
  for (const fk of t.foreign_keys) {
    const parent = `${fk.referenced_schema}.${fk.referenced_table}`;
    fk.columns.forEach((c, k) => {
      if (parent === self) {
        const col = t.columns.find((x) => x.name === c);
        // A self reference to the row's own key works whenever the key is the synthetic counter.
        values.set(c, col?.nullable ? null : String(i));
        return;
      }
      values.set(c, parentValue(parent, fk.referenced_columns[k]!, i, c));
    });
  }
  const keyCols = new Set([...(t.primary_key ?? []), ...t.constraints.filter((c) => c.type === 'unique').flatMap((c) => c.columns)]);
  for (const c of t.columns) {
    if (values.has(c.name) || c.generated || c.identity === 'always') continue;
    if (c.default !== null || c.identity) {
      if (!keyCols.has(c.name) || c.identity || /nextval/.test(c.default ?? '')) continue;
    }
    if (nullOptional && c.nullable && !keyCols.has(c.name)) continue;
    // A column the live data leaves mostly NULL stays NULL, as there (unless it is a key).
    if (c.nullable && !keyCols.has(c.name) && (c.stats?.null_frac ?? 0) >= 0.99) continue;
    const v = syntheticValue(c, i, ctx, { distinct: keyCols.has(c.name), allowed: checkedValues(t, c, ctx) });
    if (v !== undefined) values.set(c.name, v);
  }
  // A partition's rows carry key values inside its bound (a key column keeps its table order).
  if (fill?.byName && t.partition_of) {
    const key = partitionKeyValues(t, fill.byName, fill.partitions, i - 1, (c) => keyCols.has(c));
    if (key) for (const [c, v] of key) values.set(c, v);
  }
  return values;
}

/** What rows of partitions need to know about the schema's other tables. */
interface Fill {
  byName: ReadonlyMap<string, TableInfo>;
  partitions: ReadonlyMap<string, TableInfo[]>;
}

const fillOf = (snapshot: SchemaSnapshot): Fill => ({
  byName: new Map(snapshot.tables.map((t) => [qualifiedName(t), t])),
  partitions: partitionsByParent(snapshot.tables),
});

/** Parent values from the rows RETURNING gave back, row `i` pointing at parent row `(i - 1) % n`. */
const fromInserted =
  (inserted: ReadonlyMap<string, Row[]>): ParentValue =>
  (parent, column, i) => {
    const rows = inserted.get(parent) ?? [];
    const row = rows.length ? rows[(i - 1) % rows.length] : undefined;
    return row ? row[column] : null;
  };

async function insertRow(db: SandboxSession, t: TableInfo, values: Map<string, unknown>): Promise<Row> {
  return (await insertRows(db, t, [values]))[0]!;
}

/** One multi-row INSERT ... RETURNING * when all rows set the same columns (one round trip per table). */
async function insertRows(db: SandboxSession, t: TableInfo, rows: Map<string, unknown>[]): Promise<Row[]> {
  const cols = [...rows[0]!.keys()];
  if (!cols.length) {
    const out: Row[] = [];
    for (let i = 0; i < rows.length; i++)
      out.push((await db.query<Row>(`INSERT INTO ${quoteQualified(qualifiedName(t))} DEFAULT VALUES RETURNING *`)).rows[0]!);
    return out;
  }
  const params: unknown[] = [];
  const tuples = rows.map((r) => `(${cols.map((c) => (r.get(c) instanceof SqlExpr ? (r.get(c) as SqlExpr).sql : `$${params.push(r.get(c))}`)).join(', ')})`);
  const sql = `INSERT INTO ${quoteQualified(qualifiedName(t))} (${cols.map(quoteIdent).join(', ')}) VALUES ${tuples.join(', ')} RETURNING *`;
  return (await db.query<Row>(sql, params)).rows;
}

/**
 * Whether the table holds no row in the target: its heap has no page at all (exact, analyzed or
 * not), or, in snapshots without heap sizes, neither the statistics collector nor ANALYZE counts
 * a row. Such a table stays empty in the clone, as `ADD COLUMN ... NOT NULL` without a default
 * then behaves as it will on the target. Hand-built snapshots without either figure are filled.
 */
export const emptyInTarget = (t: TableInfo): boolean =>
  t.heap_bytes !== undefined ? t.heap_bytes === 0 : t.live_rows !== undefined && t.live_rows === 0 && t.row_estimate === 0;

/**
 * Tables that get synthetic rows, parents first: plain tables and leaf partitions (rows go into
 * the partition they belong to), each seen with the keys and checks its ancestors declare.
 */
const fillable = (snapshot: SchemaSnapshot, fill: Fill, tables?: ReadonlySet<string>): TableInfo[] =>
  tablesInDependencyOrder(snapshot)
    .filter((t) => t.kind === 'table' && !emptyInTarget(t) && (!tables || tables.has(qualifiedName(t))))
    .map((t) => effectiveTable(t, fill.byName));

const sqlValue = (v: unknown): string => (v === null || v === undefined ? 'NULL' : v instanceof SqlExpr ? v.sql : quoteLiteral(String(v)));

/**
 * Every synthetic row as one SQL script: the INSERTs the table-by-table path sends when each
 * table takes its rows on the first try (the common case), one multi-row INSERT per table. Where
 * that path copies a foreign key from the parent row RETURNING gave back, the script repeats the
 * text the parent column was given (same type, so the same value) or, for defaults, sequences
 * and other types, reads the parent row back by insertion order (ctid): the same rows either way.
 */
export function syntheticRowsScript(snapshot: SchemaSnapshot, rowsPerTable: number, tables?: ReadonlySet<string>): { sql: string; inserted: number } {
  if (rowsPerTable <= 0) return { sql: '', inserted: 0 };
  const ctx = valueContext(snapshot);
  const byName = new Map(snapshot.tables.map((t) => [qualifiedName(t), t]));
  /** Rows written so far, by table: what each column was given (absent: left to its default). */
  const written = new Map<string, Map<string, unknown>[]>();
  const parentValue =
    (child: TableInfo): ParentValue =>
    (parent, column, i, childColumn) => {
      const rows = written.get(parent);
      if (!rows) return null;
      const k = (i - 1) % rows.length;
      const given = rows[k]!.get(column);
      // The text the parent row was given, when it went into a column of the same type, is the
      // value it holds; anything else (defaults, sequences, other types) is read back.
      const type = byName.get(parent)?.columns.find((c) => c.name === column)?.data_type;
      if (given !== undefined && type !== undefined && type === child.columns.find((c) => c.name === childColumn)?.data_type) return given;
      // A partitioned parent's rows live in its partitions, whose ctids repeat: order by the column there.
      const order = byName.get(parent)?.kind === 'partitioned_table' ? quoteIdent(column) : 'ctid';
      return new SqlExpr(`(SELECT ${quoteIdent(column)} FROM ${quoteQualified(parent)} ORDER BY ${order} LIMIT 1 OFFSET ${k})`);
    };
  const statements: string[] = [];
  let inserted = 0;
  const fill = fillOf(snapshot);
  for (const t of fillable(snapshot, fill, tables)) {
    const name = quoteQualified(qualifiedName(t));
    const batch = Array.from({ length: rowsPerTable }, (_, k) => rowValues(t, k + 1, parentValue(t), ctx, false, fill));
    const sameColumns = batch.every((b) => [...b.keys()].join() === [...batch[0]!.keys()].join());
    for (const rows of sameColumns ? [batch] : batch.map((b) => [b])) {
      const cols = [...rows[0]!.keys()];
      if (!cols.length) for (let i = 0; i < rows.length; i++) statements.push(`INSERT INTO ${name} DEFAULT VALUES`);
      else
        statements.push(
          `INSERT INTO ${name} (${cols.map(quoteIdent).join(', ')}) VALUES ${rows.map((r) => `(${cols.map((c) => sqlValue(r.get(c))).join(', ')})`).join(', ')}`,
        );
    }
    written.set(qualifiedName(t), batch);
    // Rows of a partition are rows of every table above it.
    for (const a of ancestorsOf(t, fill.byName)) written.set(qualifiedName(a), [...(written.get(qualifiedName(a)) ?? []), ...batch]);
    inserted += rowsPerTable;
  }
  return { sql: statements.join(';\n'), inserted };
}

/**
 * Inserts `rowsPerTable` rows per table, parents first, respecting keys, types, enums and (by
 * retrying with optional columns NULL) most check constraints. Partitioned tables get their rows
 * in their leaf partitions, inside each one's bounds. Runs inside the caller's transaction.
 */
export async function insertSyntheticRows(
  db: SandboxSession,
  snapshot: SchemaSnapshot,
  rowsPerTable: number,
  tables?: ReadonlySet<string>,
): Promise<SyntheticRowsResult> {
  // Fast path: the whole data set in one call (into PGlite, or one round trip to a server). When
  // any table rejects its rows, undo it and go table by table, which finds out which tables need
  // retries.
  const script = syntheticRowsScript(snapshot, rowsPerTable, tables);
  if (script.sql) {
    try {
      await db.exec(`SAVEPOINT synthetic_script;\n${script.sql};\nRELEASE SAVEPOINT synthetic_script`);
      return { inserted: script.inserted, failures: [] };
    } catch {
      await db.exec('ROLLBACK TO SAVEPOINT synthetic_script');
    }
  }
  return insertSyntheticRowsTableByTable(db, snapshot, rowsPerTable, tables);
}

/** `insertSyntheticRows` one table (and, on failure, one row) at a time, with a savepoint around each try. */
export async function insertSyntheticRowsTableByTable(
  db: SandboxSession,
  snapshot: SchemaSnapshot,
  rowsPerTable: number,
  tables?: ReadonlySet<string>,
): Promise<SyntheticRowsResult> {
  const ctx = valueContext(snapshot);
  const inserted = new Map<string, Row[]>();
  const failures: SyntheticRowsResult['failures'] = [];
  let count = 0;
  const fill = fillOf(snapshot);
  for (const t of fillable(snapshot, fill, tables)) {
    const name = qualifiedName(t);
    let rows: Row[] = [];
    let lastError = '';
    // Every row in one statement; per-row retries only when that fails.
    const batch = Array.from({ length: rowsPerTable }, (_, k) => rowValues(t, k + 1, fromInserted(inserted), ctx, false, fill));
    const sameColumns = batch.every((b) => [...b.keys()].join() === [...batch[0]!.keys()].join());
    if (sameColumns && rowsPerTable > 0) {
      await db.exec('SAVEPOINT synthetic_batch');
      try {
        rows = await insertRows(db, t, batch);
        await db.exec('RELEASE SAVEPOINT synthetic_batch');
      } catch (error) {
        await db.exec('ROLLBACK TO SAVEPOINT synthetic_batch');
        lastError = (error as Error).message;
      }
    }
    for (let i = 1; i <= rowsPerTable && rows.length < rowsPerTable; i++) {
      for (const nullOptional of [false, true]) {
        await db.exec('SAVEPOINT synthetic_row');
        try {
          rows.push(await insertRow(db, t, rowValues(t, i, fromInserted(inserted), ctx, nullOptional, fill)));
          await db.exec('RELEASE SAVEPOINT synthetic_row');
          break;
        } catch (error) {
          await db.exec('ROLLBACK TO SAVEPOINT synthetic_row');
          lastError = (error as Error).message;
        }
      }
    }
    inserted.set(name, rows);
    for (const a of ancestorsOf(t, fill.byName)) inserted.set(qualifiedName(a), [...(inserted.get(qualifiedName(a)) ?? []), ...rows]);
    count += rows.length;
    if (rows.length < rowsPerTable) failures.push({ table: name, error: lastError });
  }
  return { inserted: count, failures };
}
