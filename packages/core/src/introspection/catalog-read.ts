import type pg from 'pg';
import {
  assembleContent,
  assembleStructure,
  STORAGE_QUERIES,
  STRUCTURE_QUERIES,
  type BatchRows,
  type SchemaContent,
  type SchemaStructure,
  type StructureRead,
} from './read-schema';

/** A catalog read under way: the structure comes first, the whole content once the sizes are in. */
export interface SchemaRead {
  structure: Promise<SchemaStructure>;
  content: Promise<SchemaContent>;
  /**
   * Settles once every transaction of the read is rolled back: the clients may then run other
   * queries, or be closed quietly (a session ended mid-transaction shows in the server's log).
   */
  done: Promise<void>;
  /**
   * The second connection, once it has no transaction open: as soon as nothing is left for it
   * to read (the primary may still be reading its last round trip), so other work (value
   * samples) can use it; or once its import was refused. Undefined without a second
   * connection, or when the read failed.
   */
  secondaryFree: Promise<pg.Client | undefined>;
}

/** Options of {@link startSchemaRead}. */
export interface SchemaReadOptions {
  /** A second connection to the same database, to share the reads; it may still be connecting (undefined: refused). */
  secondary?: pg.Client | Promise<pg.Client | undefined>;
  /** `statement_timeout` of each catalog query, set per transaction. */
  statementTimeoutMs?: number;
}

const BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
/** pg_export_snapshot() answers hex groups such as 00000003-0000001B-1; anything else is not inlined. */
const SNAPSHOT_ID = /^[0-9A-F]+(-[0-9A-F]+)+$/i;

/**
 * Runs statements as one simple-protocol message: one round trip, and the server runs them back
 * to back while `pg` parses the rows of the earlier ones. Returns the rows of each of `queries`;
 * `prefix` and `suffix` are transaction control around them.
 */
async function runBatch(
  client: pg.Client,
  queries: readonly string[],
  around: { prefix?: readonly string[]; suffix?: readonly string[] } = {},
): Promise<BatchRows> {
  const prefix = around.prefix ?? [];
  const res = (await client.query([...prefix, ...queries, ...(around.suffix ?? [])].join(';\n'))) as unknown as pg.QueryResult | pg.QueryResult[];
  const all = Array.isArray(res) ? res : [res];
  return all.slice(prefix.length, prefix.length + queries.length).map((r) => r.rows as object[]);
}

const lastRows = (res: unknown): Array<Record<string, unknown>> => {
  const all = (Array.isArray(res) ? res : [res]) as pg.QueryResult[];
  return (all[all.length - 1]?.rows ?? []) as Array<Record<string, unknown>>;
};

/**
 * Opens the read-only REPEATABLE READ transaction on the primary and exports its snapshot.
 * Resolves to the snapshot id, or undefined when the server refuses to export (then a plain
 * transaction is open instead).
 */
async function exportSnapshot(primary: pg.Client, setup: readonly string[]): Promise<string | undefined> {
  try {
    const id = lastRows(await primary.query([BEGIN, ...setup, 'SELECT pg_export_snapshot() AS id'].join(';\n')))[0]?.id;
    if (typeof id === 'string' && SNAPSHOT_ID.test(id)) return id;
  } catch {
    // Below: a fresh transaction without an exported snapshot.
  }
  await primary.query('ROLLBACK');
  await primary.query([BEGIN, ...setup].join(';\n'));
  return undefined;
}

/** Starts the secondary's transaction on the primary's snapshot; false when it cannot (then the primary reads all). */
async function importSnapshot(secondary: pg.Client, id: string, setup: readonly string[]): Promise<boolean> {
  try {
    await secondary.query([BEGIN, `SET TRANSACTION SNAPSHOT '${id}'`, ...setup].join(';\n'));
    return true;
  } catch {
    await secondary.query('ROLLBACK').catch(() => undefined);
    return false;
  }
}

/**
 * The catalog reads cut into round trips (indexes into {@link STRUCTURE_QUERIES} and
 * {@link STORAGE_QUERIES}) that two connections share: each takes the next one as it frees up,
 * so neither waits while the other still has a long batch. The structure comes first (table
 * chunks and value samples start from it), the storage figures after; the costliest reads
 * (columns, index definitions, relation sizes) are trips of their own so the two stay even.
 */
const TRIPS: ReadonlyArray<{ batch: 'structure' | 'storage'; queries: readonly number[] }> = [
  { batch: 'structure', queries: [0, 1, 2, 3, 7, 8, 9] }, // server, extensions, schemas, tables, enums, sequences, view dependencies
  { batch: 'structure', queries: [4] }, // columns
  { batch: 'structure', queries: [5, 6, 21] }, // constraints, foreign keys, index links
  { batch: 'structure', queries: [10, 11, 12, 13, 14, 15, 16, 17, 19] }, // domains ... comments, statistics
  { batch: 'structure', queries: [18, 20] }, // dependencies, uncaptured objects
  { batch: 'storage', queries: [1] }, // indexes
  { batch: 'storage', queries: [0, 3] }, // relation sizes, table activity
  { batch: 'storage', queries: [2] }, // column statistics
];

/**
 * Reads the user's schema in read-only REPEATABLE READ transactions that all see the same
 * moment. With a `secondary` connection the primary exports its snapshot and starts reading at
 * once; the secondary imports the snapshot and joins, the two taking the next round trip of
 * {@link TRIPS} as they free up. Should the export or the import be refused, or the import
 * still be pending when the primary is done (a pooler that queues the second session behind the
 * first, say), the primary reads it all. On one connection the structure is read first, so
 * that table chunks can be prepared while the server computes sizes. Every transaction is
 * rolled back at the end, the secondary's as soon as it has nothing left to read.
 */
export function startSchemaRead(primary: pg.Client, options: SchemaReadOptions = {}): SchemaRead {
  const secondary = options.secondary === undefined ? undefined : Promise.resolve(options.secondary);
  // SET LOCAL rather than a startup parameter, which transaction poolers (PgBouncer) refuse.
  // No JIT: the catalog queries are short, but the planner's estimates for the ones with
  // per-row subqueries pass jit_above_cost, and compiling them costs more (~35 ms) than running them.
  const setup = [
    'SET LOCAL jit = off',
    ...(options.statementTimeoutMs === undefined ? [] : [`SET LOCAL statement_timeout = ${Math.floor(options.statementTimeoutMs)}`]),
  ];

  let structureRead: Promise<StructureRead>;
  let content: Promise<SchemaContent>;
  let done: Promise<unknown>;
  let secondaryFree: Promise<pg.Client | undefined> = Promise.resolve(undefined);
  if (secondary) {
    const rows = { structure: [] as Array<readonly object[]>, storage: [] as Array<readonly object[]> };
    const left = { structure: TRIPS.filter((t) => t.batch === 'structure').length, storage: TRIPS.filter((t) => t.batch === 'storage').length };
    const queue = [...TRIPS];
    let failure: { error: unknown } | undefined;
    const structureRows = deferred<BatchRows>();
    const storageRows = deferred<BatchRows>();
    const fail = (error: unknown): void => {
      failure ??= { error };
      structureRows.reject(failure.error);
      storageRows.reject(failure.error);
    };
    // Takes trips until none is left or one failed; a failed trip leaves the transaction aborted (rolled back after).
    const work = async (client: pg.Client): Promise<void> => {
      for (let trip = queue.shift(); trip && !failure; trip = queue.shift()) {
        const texts = trip.queries.map((i) => (trip!.batch === 'structure' ? STRUCTURE_QUERIES : STORAGE_QUERIES)[i]!);
        let got: BatchRows;
        try {
          got = await runBatch(client, texts);
        } catch (error) {
          fail(error);
          return;
        }
        trip.queries.forEach((q, i) => (rows[trip!.batch][q] = got[i]!));
        if (--left[trip.batch] === 0) (trip.batch === 'structure' ? structureRows : storageRows).resolve(rows[trip.batch]);
      }
    };
    const exported = exportSnapshot(primary, setup);
    // A second connection that never comes (refused) leaves it all to the primary.
    const second = secondary.catch(() => undefined);
    const imported = Promise.all([exported, second]).then(([id, client]) =>
      id === undefined || !client ? undefined : importSnapshot(client, id, setup).then((ok) => (ok ? client : undefined)),
    );
    const onPrimary = exported.then(() => work(primary), fail);
    const onSecondary = imported.then(
      async (client) => {
        if (!client) return;
        await work(client);
        await client.query('ROLLBACK');
      },
      () => undefined,
    );
    structureRead = structureRows.promise.then(assembleStructure);
    content = Promise.all([structureRead, storageRows.promise]).then(([read, storage]) => assembleContent(read, storage));
    // After a failure too: end the (possibly aborted) transactions. A pending import is waited
    // for: one that a pooler queued behind the primary's transaction fails once that ends.
    done = Promise.allSettled([onPrimary, content])
      .then(() => primary.query('ROLLBACK'))
      .then(() => onSecondary);
    secondaryFree = onSecondary.then(
      async () => (failure ? undefined : second),
      () => undefined,
    );
  } else {
    structureRead = runBatch(primary, STRUCTURE_QUERIES, { prefix: [BEGIN, ...setup] }).then(assembleStructure);
    const storage = structureRead.then(() => runBatch(primary, STORAGE_QUERIES, { suffix: ['ROLLBACK'] }));
    content = Promise.all([structureRead, storage]).then(([read, rows]) => assembleContent(read, rows));
    // After a failure only: the last batch ends the transaction.
    done = Promise.allSettled([structureRead, storage]).then(() => Promise.all([structureRead, storage]).catch(() => primary.query('ROLLBACK')));
  }

  const structure = structureRead.then((r) => r.structure);
  // Callers may await `content` only; a failure is reported there.
  structure.catch(() => undefined);
  return {
    structure,
    content,
    done: done.then(
      () => undefined,
      () => undefined,
    ),
    secondaryFree,
  };
}

/** A promise with its resolve and reject at hand; settling twice is a no-op. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** The whole schema read on `client` (and `secondary`, when given), its transactions ended; see {@link startSchemaRead}. */
export async function readTargetSchema(client: pg.Client, statementTimeoutMs?: number, secondary?: pg.Client): Promise<SchemaContent> {
  const read = startSchemaRead(client, { statementTimeoutMs, secondary });
  try {
    return await read.content;
  } finally {
    await read.done;
  }
}
