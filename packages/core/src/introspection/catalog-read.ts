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
   * The second connection, once it has no transaction open: as soon as it has read the structure
   * when the read was split (its batch ends with the ROLLBACK), so other work (value samples)
   * can use it while the primary still reads the storage figures; otherwise once the read is
   * done. Undefined without a second connection, or when the structure read failed.
   */
  secondaryFree: Promise<pg.Client | undefined>;
}

/** Options of {@link startSchemaRead}. */
export interface SchemaReadOptions {
  /** A second connection to the same database, to read the two batches at once. */
  secondary?: pg.Client;
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
 * Reads the user's schema in read-only REPEATABLE READ transactions that all see the same
 * moment. With a `secondary` connection the two batches run at once, one per connection: the
 * storage figures (sizes, indexes: the longer batch) on the primary as soon as it has exported
 * its snapshot, the structure on the secondary once it has imported that snapshot. Should the
 * export or the import be refused, or the import still be pending when the primary is done
 * (a pooler that queues the second session behind the first, say), the primary reads the
 * structure too. On one connection the structure is read first, so that table chunks can be
 * prepared while the server computes sizes. Every transaction is rolled back at the end.
 */
export function startSchemaRead(primary: pg.Client, options: SchemaReadOptions = {}): SchemaRead {
  const { secondary } = options;
  // SET LOCAL rather than a startup parameter, which transaction poolers (PgBouncer) refuse.
  // No JIT: the catalog queries are short, but the planner's estimates for the ones with
  // per-row subqueries pass jit_above_cost, and compiling them costs more (~35 ms) than running them.
  const setup = [
    'SET LOCAL jit = off',
    ...(options.statementTimeoutMs === undefined ? [] : [`SET LOCAL statement_timeout = ${Math.floor(options.statementTimeoutMs)}`]),
  ];

  let storage: Promise<BatchRows>;
  let structureRead: Promise<StructureRead>;
  let finish: () => Promise<unknown>;
  let secondaryFree: Promise<pg.Client | undefined> = Promise.resolve(undefined);
  if (secondary) {
    const exported = exportSnapshot(primary, setup);
    const imported = exported.then((id) => (id === undefined ? false : importSnapshot(secondary, id, setup)));
    storage = exported.then(() => runBatch(primary, STORAGE_QUERIES));
    // Whichever comes first: the secondary ready to read, or the primary free to read it all.
    const onSecondary = Promise.race([
      imported,
      storage.then(
        () => false,
        () => false,
      ),
    ]);
    // On the secondary the batch ends its transaction in the same message: the connection is
    // free for other work while the primary still reads.
    const structureRows = onSecondary.then(async (split) => {
      // One query at a time per connection: on the primary, after the storage batch.
      if (!split) await storage;
      return split ? runBatch(secondary, STRUCTURE_QUERIES, { suffix: ['ROLLBACK'] }) : runBatch(primary, STRUCTURE_QUERIES);
    });
    structureRead = structureRows.then(assembleStructure);
    // Only a failed batch leaves the secondary's transaction open (aborted): end it.
    const secondaryEnded = onSecondary.then(async (split) => {
      if (!split) return false;
      await structureRows.catch(() => secondary.query('ROLLBACK'));
      return true;
    });
    finish = async () => {
      const split = await secondaryEnded.catch(() => false);
      await primary.query('ROLLBACK');
      // An import that a pooler queued behind the primary's transaction fails once that ends;
      // one that succeeded after the primary took over the structure is ended too.
      if (!split && (await imported.catch(() => false))) await secondary.query('ROLLBACK');
    };
    secondaryFree = structureRows.then(
      async () => ((await secondaryEnded) ? secondary : done.then(() => secondary)),
      () => undefined,
    );
  } else {
    structureRead = runBatch(primary, STRUCTURE_QUERIES, { prefix: [BEGIN, ...setup] }).then(assembleStructure);
    storage = structureRead.then(() => runBatch(primary, STORAGE_QUERIES, { suffix: ['ROLLBACK'] }));
    // After a failure only: the last batch ends the transaction.
    finish = () => Promise.all([structureRead, storage]).catch(() => primary.query('ROLLBACK'));
  }

  const content = Promise.all([structureRead, storage]).then(([read, rows]) => assembleContent(read, rows));
  // After a failure too: the batches stopped, end the (aborted) transactions.
  const done: Promise<void> = Promise.allSettled([structureRead, storage])
    .then(() => finish())
    .then(
      () => undefined,
      () => undefined,
    );
  const structure = structureRead.then((r) => r.structure);
  // Callers may await `content` only; a failure is reported there.
  structure.catch(() => undefined);
  return { structure, content, done, secondaryFree };
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
