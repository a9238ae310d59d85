import { jsonParserFor, type JsonValue } from './json-values';

/** What one statement returned. */
export interface StatementResult {
  columns: string[];
  rows: JsonValue[][];
  /** True when the statement had more rows than were kept. */
  truncated: boolean;
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
  sync(): void;
  sendCopyFail(message: string): void;
  stream?: { cork?(): void; uncork?(): void };
}

/**
 * Runs one statement through the extended protocol (Parse/Bind/Describe/Execute/Sync) as a `pg`
 * "submittable". The extended protocol accepts exactly one statement, which is a server-side
 * guarantee on top of the parser's statement count. With `keep` rows wanted, Execute asks for
 * `keep + 1` rows: the server stops producing rows there (PortalSuspended), so rows beyond the
 * limit are never computed nor sent. With `drain` (top-level DML, whose affected-row count only
 * comes with CommandComplete) all rows are read but only `keep` are kept.
 */
export class PortalReader {
  readonly promise: Promise<StatementResult>;
  private resolve!: (r: StatementResult) => void;
  private reject!: (e: unknown) => void;
  private fields: Field[] = [];
  private parsers: Array<(t: string) => JsonValue> = [];
  private rows: JsonValue[][] = [];
  private extra = 0;
  private suspended = false;
  private command: string | null = null;
  private commandCount: number | null = null;
  private error: unknown;

  constructor(
    private readonly text: string,
    private readonly keep: number,
    private readonly drain: boolean,
  ) {
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
    connection.stream?.cork?.();
    try {
      connection.parse({ text: this.text });
      connection.bind({ values: [] });
      connection.describe({ type: 'P' });
      connection.execute({ rows: this.drain ? 0 : this.keep + 1 });
      connection.sync();
    } finally {
      connection.stream?.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: Field[] }): void {
    this.fields = msg.fields;
    this.parsers = msg.fields.map((f) => jsonParserFor(f.dataTypeID));
  }

  handleDataRow(msg: { fields: Array<string | null> }): void {
    if (this.rows.length >= this.keep) {
      this.extra++;
      return;
    }
    try {
      this.rows.push(msg.fields.map((v, i) => (v === null ? null : this.parsers[i]!(v))));
    } catch (e) {
      this.error ??= e;
    }
  }

  handlePortalSuspended(): void {
    this.suspended = true;
  }

  handleCommandComplete(msg: { text?: string; command?: string; rowCount?: number | null }): void {
    const tag = msg.text ?? '';
    const m = /^(.*?)(?: \d+)?(?: (\d+))?$/.exec(tag);
    this.command = (m?.[1] ?? tag) || null;
    const count = /(\d+)$/.exec(tag);
    this.commandCount = count ? Number(count[1]) : null;
  }

  handleEmptyQuery(): void {
    this.command = null;
  }

  handleError(err: unknown): void {
    this.reject(err);
  }

  handleReadyForQuery(): void {
    if (this.error) {
      this.reject(this.error);
      return;
    }
    this.resolve({
      columns: this.fields.map((f) => f.name),
      rows: this.rows,
      truncated: this.suspended || this.extra > 0,
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
