import { jsonParserFor, type JsonValue } from './json-values';

/** Why rows were cut: `row_limit` reached, or the answer's byte budget (`max_bytes`) full. */
export type TruncatedReason = 'row_limit' | 'max_bytes';

/** What one statement returned. */
export interface StatementResult {
  columns: string[];
  rows: JsonValue[][];
  /** True when the statement had more rows than were kept. */
  truncated: boolean;
  /** Set when {@link truncated}. */
  truncatedReason: TruncatedReason | null;
  /** Command tag verb, e.g. `SELECT`, `INSERT`, `CREATE TABLE`; null for an empty query. */
  command: string | null;
  /** Row count of the command tag (INSERT/UPDATE/DELETE/MERGE/SELECT...), null when it has none. */
  commandCount: number | null;
}

interface Field {
  name: string;
  dataTypeID: number;
}

/** The slice of pg's internal Connection this submittable drives. */
interface ProtocolConnection {
  parse(msg: { text: string; name?: string; types?: unknown[] }): void;
  bind(msg: { portal?: string; statement?: string; values?: unknown[] }): void;
  describe(msg: { type: 'P' | 'S'; name?: string }): void;
  execute(msg: { portal?: string; rows?: number }): void;
  flush(): void;
  sync(): void;
  sendCopyFail(message: string): void;
  stream?: { cork?(): void; uncork?(): void };
}

/** Rows asked for by the first Execute: the default row_limit plus one, so the common request is one round trip. */
export const FIRST_BATCH_ROWS = 1001;
/** Most rows asked for by a later Execute. */
const MAX_BATCH_ROWS = 1000;

/**
 * Bytes `json` takes in a Lambda response: the body is a string inside the response's JSON, so
 * each `"` and `\` of it is escaped once more.
 */
export function payloadBytes(json: string): number {
  let extra = 0;
  for (let i = json.indexOf('"'); i >= 0; i = json.indexOf('"', i + 1)) extra++;
  for (let i = json.indexOf('\\'); i >= 0; i = json.indexOf('\\', i + 1)) extra++;
  return Buffer.byteLength(json, 'utf8') + extra;
}

/** A statement without parameters or rows (BEGIN, SET LOCAL, ROLLBACK) as Parse, Bind and Execute, in the packet being written. */
function sendUtility(connection: ProtocolConnection, text: string): void {
  connection.parse({ text });
  connection.bind({ values: [] });
  connection.execute({ rows: 0 });
}

/**
 * Runs one statement through the extended protocol (Parse/Bind/Describe/Execute) as a `pg`
 * "submittable". The extended protocol accepts exactly one statement, which is a server-side
 * guarantee on top of the parser's statement count.
 *
 * Two limits: `keep` rows and `maxBytes` of rows in the answer (as they will weigh in the
 * response). Execute asks for `keep + 1` rows at most, so rows beyond the limit are never
 * computed nor sent. Up to {@link FIRST_BATCH_ROWS} rows go in one round trip with Sync
 * pipelined; a larger `keep` is read in batches (Execute, Flush, PortalSuspended, Execute...)
 * sized by the bytes still free, and reading stops once the budget is full, so a result of
 * 10,000 wide rows costs the memory of the budget, not of the result. With `drain` (top-level
 * DML, whose affected-row count only comes with CommandComplete) all rows are read but only
 * what fits is kept.
 */
export class PortalReader {
  readonly promise: Promise<StatementResult>;
  private resolve!: (r: StatementResult) => void;
  private reject!: (e: unknown) => void;
  private fields: Field[] = [];
  private parsers: Array<(t: string) => JsonValue> = [];
  private rows: JsonValue[][] = [];
  private bytes = 0;
  private extra = 0;
  private full = false;
  private asked = 0;
  private synced = false;
  private command: string | null = null;
  private commandCount: number | null = null;
  private error: unknown;
  private preludeLeft: number;
  /** The statement's own CommandComplete or PortalSuspended came: later completions are the ROLLBACK's. */
  private statementDone = false;

  constructor(
    private readonly text: string,
    private readonly keep: number,
    private readonly drain: boolean,
    private readonly maxBytes: number = Infinity,
    /**
     * Statements without parameters or rows (BEGIN, SET LOCAL) sent ahead of `text` in the same
     * packet and Sync, each its own Parse/Bind/Execute: what opens the statement's transaction
     * costs no round trip of its own. An error in one skips the rest, the statement included.
     */
    private readonly prelude: readonly string[] = [],
    /**
     * Ends the transaction with ROLLBACK in the same packet when the statement is read in one
     * Execute (after its rows, before Sync); a larger read leaves it open for the caller.
     */
    private readonly rollbackAfter = false,
  ) {
    this.preludeLeft = prelude.length;
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Settled through handleError/handleReadyForQuery; keep Node from flagging an early rejection.
    this.promise.catch(() => undefined);
  }

  submit(connection: ProtocolConnection): null {
    // One packet, as pg's own Query does: five small writes would be five syscalls (and, with
    // Nagle, can wait on the server's delayed ACK).
    const wanted = this.keep + 1;
    const batched = !this.drain && wanted > FIRST_BATCH_ROWS;
    connection.stream?.cork?.();
    try {
      for (const text of this.prelude) sendUtility(connection, text);
      connection.parse({ text: this.text });
      connection.bind({ values: [] });
      connection.describe({ type: 'P' });
      this.asked = this.drain ? 0 : Math.min(wanted, FIRST_BATCH_ROWS);
      connection.execute({ rows: this.asked });
      if (batched) connection.flush();
      else {
        if (this.rollbackAfter) sendUtility(connection, 'ROLLBACK');
        this.sync(connection);
      }
    } finally {
      connection.stream?.uncork?.();
    }
    return null;
  }

  private sync(connection: ProtocolConnection): void {
    if (this.synced) return;
    this.synced = true;
    connection.sync();
  }

  handleRowDescription(msg: { fields: Field[] }): void {
    this.fields = msg.fields;
    this.parsers = msg.fields.map((f) => jsonParserFor(f.dataTypeID));
    this.bytes = payloadBytes(JSON.stringify(msg.fields.map((f) => f.name)));
  }

  handleDataRow(msg: { fields: Array<string | null> }): void {
    if (this.full || this.rows.length >= this.keep) {
      this.extra++;
      return;
    }
    try {
      const row = msg.fields.map((v, i) => (v === null ? null : this.parsers[i]!(v)));
      const size = payloadBytes(JSON.stringify(row)) + 1;
      if (this.bytes + size > this.maxBytes) {
        this.full = true;
        this.extra++;
        return;
      }
      this.bytes += size;
      this.rows.push(row);
    } catch (e) {
      this.error ??= e;
    }
  }

  handlePortalSuspended(connection: ProtocolConnection): void {
    const wanted = this.keep + 1;
    if (this.synced || this.full || this.error || this.asked >= wanted) {
      // Suspended after keep + 1 rows: there were more than keep.
      if (!this.full && this.asked >= wanted) this.extra = Math.max(this.extra, 1);
      this.statementDone = true;
      this.sync(connection);
      return;
    }
    // The next batch: as many rows as the bytes still free hold at the average row size so far.
    const average = this.rows.length > 0 ? this.bytes / this.rows.length : 1;
    const fits = Math.max(1, Math.floor((this.maxBytes - this.bytes) / Math.max(average, 1)) + 1);
    const rows = Math.min(wanted - this.asked, MAX_BATCH_ROWS, fits);
    this.asked += rows;
    connection.execute({ rows });
    connection.flush();
  }

  handleCommandComplete(msg: { text?: string; command?: string; rowCount?: number | null }, connection: ProtocolConnection): void {
    if (this.preludeLeft > 0) {
      this.preludeLeft--;
      return;
    }
    if (this.statementDone) return;
    this.statementDone = true;
    const tag = msg.text ?? '';
    const m = /^(.*?)(?: \d+)?(?: (\d+))?$/.exec(tag);
    this.command = (m?.[1] ?? tag) || null;
    const count = /(\d+)$/.exec(tag);
    this.commandCount = count ? Number(count[1]) : null;
    this.sync(connection);
  }

  handleEmptyQuery(connection: ProtocolConnection): void {
    this.command = null;
    this.sync(connection);
  }

  handleError(err: unknown, connection: ProtocolConnection): void {
    // The server discards everything until Sync after an error; without it the session hangs.
    this.sync(connection);
    this.reject(err);
  }

  handleReadyForQuery(): void {
    if (this.error) {
      this.reject(this.error);
      return;
    }
    const truncated = this.full || this.extra > 0;
    this.resolve({
      columns: this.fields.map((f) => f.name),
      rows: this.rows,
      truncated,
      truncatedReason: truncated ? (this.full ? 'max_bytes' : 'row_limit') : null,
      command: this.command,
      commandCount: this.commandCount,
    });
  }

  handleCopyInResponse(connection: ProtocolConnection): void {
    connection.sendCopyFail('COPY FROM STDIN is not supported by /execute');
  }

  handleCopyData(): void {
    // COPY TO STDOUT data is not part of the result.
  }
}
