import { type PGlite, protocol, types } from '@electric-sql/pglite';
import pgUtils from 'pg/lib/utils.js';
import type { PgliteStatementCache } from './pglite-statement-cache';
import type { QueryResult } from './store';

type Message = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];
interface RowDescription {
  name: 'rowDescription';
  fields: { name: string; dataTypeID: number }[];
}
interface DataRow {
  name: 'dataRow';
  fields: (string | null)[];
}
interface CommandComplete {
  name: 'commandComplete';
  text: string;
}

const { prepareValue } = pgUtils;

/** Rows touched, from a CommandComplete tag such as `UPDATE 3` or `INSERT 0 1`. */
function affectedRows(tag: string): number {
  const last = tag.slice(tag.lastIndexOf(' ') + 1);
  const n = Number(last);
  return Number.isInteger(n) ? n : 0;
}

/**
 * One parameterized statement in a single trip through PGlite's WASM main loop.
 *
 * `PGlite.query` sends Parse, Describe (to learn the parameter types), Bind, Describe and Execute
 * as five separate calls into the WASM backend, each a full turn of its main loop; for the small
 * look-ups and upserts of every request (key, rate limit, charge) that was most of their cost.
 * Here the whole extended-protocol exchange goes in one buffer, with parameters prepared the way
 * `pg` prepares them for the server store (text, untyped, the server infers the types), so both
 * stores see the same values. The statement is a named one, parsed on its first run only (see
 * PgliteStatementCache). Results are parsed with PGlite's own type parsers, so rows are the same
 * as `PGlite.query` returns.
 *
 * No file-system sync is asked for: the store only opens data directories on the host's file
 * system or in memory, where PGlite's sync does nothing but take a lock.
 *
 * The caller holds PGlite's locks (see PgliteStore): this function takes none.
 */
export async function oneTripQuery<R extends object>(
  db: PGlite,
  sql: string,
  params: readonly unknown[],
  statements: PgliteStatementCache,
): Promise<QueryResult<R>> {
  const values = params.map((p) => prepareValue(p));
  let messages: Message[];
  try {
    messages = await trip(db, sql, values, statements);
  } catch (err) {
    // The trip may have failed before its Parse, after it, or because a cached plan no longer
    // fits the table: the next run of this text parses afresh under a new name.
    statements.forget(sql);
    // A table changed under a statement's `*` or `RETURNING *`: parsed afresh, the statement
    // means what it says now. Inside a transaction block the error has already aborted it.
    if (!planResultChanged(err) || db.isInTransaction()) throw err;
    messages = await trip(db, sql, values, statements);
  }

  let fields: RowDescription['fields'] = [];
  const rows: R[] = [];
  let affected = 0;
  for (const m of messages) {
    if (m.name === 'rowDescription') fields = (m as unknown as RowDescription).fields;
    else if (m.name === 'dataRow') {
      const raw = (m as unknown as DataRow).fields;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i]!;
        const v = raw[i];
        row[f.name] = v === null || v === undefined ? null : types.parseType(v, f.dataTypeID, db.parsers);
      }
      rows.push(row as R);
    } else if (m.name === 'commandComplete') affected = affectedRows((m as unknown as CommandComplete).text);
  }
  return { rows, rowCount: rows.length > 0 ? rows.length : affected };
}

/** One exchange for a prepared or a first-seen statement; closes the names waiting to be closed. */
async function trip(db: PGlite, sql: string, values: readonly unknown[], statements: PgliteStatementCache): Promise<Message[]> {
  // Closing inside a transaction block could fail in an aborted one and take the caller's
  // statement with it; the names wait for a trip outside one.
  const closing = db.isInTransaction() ? [] : statements.takeClosing();
  const { name, parse } = statements.nameFor(sql);
  const parts = [
    ...closing.map((n) => protocol.serialize.close({ type: 'S', name: n })),
    ...(parse ? [protocol.serialize.parse({ name, text: sql, types: [] })] : []),
    protocol.serialize.bind({ statement: name, values: values as never[] }),
    protocol.serialize.describe({ type: 'P' }),
    protocol.serialize.execute({}),
    protocol.serialize.sync(),
  ];
  const message = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    message.set(p, at);
    at += p.length;
  }
  const { messages } = await db.execProtocol(message, { syncToFs: false, throwOnError: true });
  return messages as Message[];
}

/** PostgreSQL's refusal to run a cached plan whose result columns changed (SQLSTATE 0A000). */
function planResultChanged(err: unknown): boolean {
  return err instanceof Error && (err as { code?: unknown }).code === '0A000' && /cached plan must not change result type/.test(err.message);
}
