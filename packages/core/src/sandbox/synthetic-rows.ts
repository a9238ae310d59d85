import type { PGlite } from '@electric-sql/pglite';
import { quoteIdent, quoteQualified } from '../analysis/sql-ident';
import type { EnumInfo, SchemaSnapshot, TableInfo } from '../introspection/schema-snapshot';
import { qualifiedName } from '../introspection/schema-snapshot';
import { tablesInDependencyOrder } from './schema-ddl';
import { syntheticValue } from './synthetic-values';

type Row = Record<string, unknown>;

export interface SyntheticRowsResult {
  inserted: number;
  /** Tables that got fewer rows than asked, with the reason. */
  failures: { table: string; error: string }[];
}

/** Column values of synthetic row `i` of `t`; foreign keys point at rows already inserted in the parent. */
function rowValues(t: TableInfo, i: number, inserted: ReadonlyMap<string, Row[]>, enums: ReadonlyMap<string, EnumInfo>, nullOptional: boolean): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const self = qualifiedName(t);
  for (const fk of t.foreign_keys) {
    const parent = `${fk.referenced_schema}.${fk.referenced_table}`;
    const rows = inserted.get(parent) ?? [];
    fk.columns.forEach((c, k) => {
      if (parent === self) {
        const col = t.columns.find((x) => x.name === c);
        // A self reference to the row's own key works whenever the key is the synthetic counter.
        values.set(c, col?.nullable ? null : String(i));
        return;
      }
      const row = rows.length ? rows[(i - 1) % rows.length] : undefined;
      values.set(c, row ? row[fk.referenced_columns[k]!] : null);
    });
  }
  const keyCols = new Set([...(t.primary_key ?? []), ...t.constraints.filter((c) => c.type === 'unique').flatMap((c) => c.columns)]);
  for (const c of t.columns) {
    if (values.has(c.name) || c.generated || c.identity === 'always') continue;
    if (c.default !== null || c.identity) {
      if (!keyCols.has(c.name) || c.identity || /nextval/.test(c.default ?? '')) continue;
    }
    if (nullOptional && c.nullable && !keyCols.has(c.name)) continue;
    const v = syntheticValue(c, i, enums);
    if (v !== undefined) values.set(c.name, v);
  }
  return values;
}

async function insertRow(db: PGlite, t: TableInfo, values: Map<string, unknown>): Promise<Row> {
  return (await insertRows(db, t, [values]))[0]!;
}

/** One multi-row INSERT ... RETURNING * when all rows set the same columns (one round trip per table). */
async function insertRows(db: PGlite, t: TableInfo, rows: Map<string, unknown>[]): Promise<Row[]> {
  const cols = [...rows[0]!.keys()];
  if (!cols.length) {
    const out: Row[] = [];
    for (let i = 0; i < rows.length; i++) out.push((await db.query<Row>(`INSERT INTO ${quoteQualified(qualifiedName(t))} DEFAULT VALUES RETURNING *`)).rows[0]!);
    return out;
  }
  const params: unknown[] = [];
  const tuples = rows.map((r) => `(${cols.map((c) => `$${params.push(r.get(c))}`).join(', ')})`);
  const sql = `INSERT INTO ${quoteQualified(qualifiedName(t))} (${cols.map(quoteIdent).join(', ')}) VALUES ${tuples.join(', ')} RETURNING *`;
  return (await db.query<Row>(sql, params)).rows;
}

/**
 * Inserts `rowsPerTable` rows per table, parents first, respecting keys, types, enums and (by
 * retrying with optional columns NULL) most check constraints. Partitioned tables are skipped:
 * a synthetic row rarely fits an arbitrary partition bound.
 */
export async function insertSyntheticRows(db: PGlite, snapshot: SchemaSnapshot, rowsPerTable: number, tables?: ReadonlySet<string>): Promise<SyntheticRowsResult> {
  const enums = new Map<string, EnumInfo>();
  for (const e of snapshot.enums) {
    enums.set(e.name, e);
    enums.set(`${e.schema}.${e.name}`, e);
  }
  const inserted = new Map<string, Row[]>();
  const failures: SyntheticRowsResult['failures'] = [];
  let count = 0;
  for (const t of tablesInDependencyOrder(snapshot)) {
    const name = qualifiedName(t);
    if (t.kind !== 'table' || t.partition_of || (tables && !tables.has(name))) continue;
    let rows: Row[] = [];
    let lastError = '';
    // Fast path: every row in one statement; per-row retries only when that fails.
    const batch = Array.from({ length: rowsPerTable }, (_, k) => rowValues(t, k + 1, inserted, enums, false));
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
          rows.push(await insertRow(db, t, rowValues(t, i, inserted, enums, nullOptional)));
          await db.exec('RELEASE SAVEPOINT synthetic_row');
          break;
        } catch (error) {
          await db.exec('ROLLBACK TO SAVEPOINT synthetic_row');
          lastError = (error as Error).message;
        }
      }
    }
    inserted.set(name, rows);
    count += rows.length;
    if (rows.length < rowsPerTable) failures.push({ table: name, error: lastError });
  }
  return { inserted: count, failures };
}
