import { type PGlite, protocol, types } from '@electric-sql/pglite';
import pgUtils from 'pg/lib/utils.js';
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
 * stores see the same values. Results are parsed with PGlite's own type parsers, so rows are the
 * same as `PGlite.query` returns.
 *
 * The caller holds PGlite's locks (see PgliteStore): this function takes none.
 */
export async function oneTripQuery<R extends object>(db: PGlite, sql: string, params: readonly unknown[], syncToFs: boolean): Promise<QueryResult<R>> {
  const values = params.map((p) => prepareValue(p));
  const parts = [
    protocol.serialize.parse({ text: sql, types: [] }),
    protocol.serialize.bind({ values }),
    protocol.serialize.describe({ type: 'P' }),
    protocol.serialize.execute({}),
    protocol.serialize.sync(),
  ];
  const size = parts.reduce((n, p) => n + p.length, 0);
  const message = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    message.set(p, at);
    at += p.length;
  }
  const { messages } = await db.execProtocol(message, { syncToFs, throwOnError: true });

  let fields: RowDescription['fields'] = [];
  const rows: R[] = [];
  let affected = 0;
  for (const m of messages as Message[]) {
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
