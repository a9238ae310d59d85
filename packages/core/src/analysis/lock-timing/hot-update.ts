import { type AstNode, nodeBody, nodeKind } from '../ast';
import type { ParsedStatement } from '../parse-statements';

/**
 * Share of an UPDATE's changed rows that are not HOT, from averages: where the target's pages
 * cannot be sampled (`playedHotShare` in live-features.ts plays the share out on sampled pages,
 * `hot-simulation.ts`, and this is its fallback). A HOT update (heap-only tuple) adds no index
 * entry, but PostgreSQL makes one only when no column an index reads (key, expression or
 * predicate) changes and the new version fits on the old one's page. `roomBytes` is a page's free
 * space (`freeBytesPerPage`), shared by the `changedPerPage` rows the statement changes there.
 *
 * A version that does not fit goes where the free space map points: into the room of pages the
 * UPDATE has not reached yet. Where the pages hold less room than their changed rows need, those
 * displaced versions keep filling the pages ahead, and the HOT share falls to nearly none (set
 * U-B: 2.6 % HOT with room for three of 4.85 changed rows a page), not to room / need. Where they
 * hold more, some pages still overflow (the changes per page vary), and both figures come from
 * estimates (the room is 8 kB less rows x their size) that can each be off by a third: the share
 * rises from none at room = need to all at twice the need, a width chosen for that uncertainty,
 * not fitted.
 */
export function nonHotShare(o: { indexedColumnChanged: boolean; roomBytes: number; rowBytes: number; changedPerPage: number }): number {
  if (o.indexedColumnChanged) return 1;
  const need = Math.max(1, o.rowBytes) * Math.max(1, o.changedPerPage);
  const ratio = Math.max(0, o.roomBytes) / need;
  return 1 - Math.min(1, Math.max(0, ratio - 1));
}

/** A column as the catalog and `pg_stats` describe it, in attribute order. */
export interface StoredColumn {
  /** `attlen`: bytes of a fixed-width type, -1 for varlena. */
  len: number;
  /** `attalign`: c, s, i or d. */
  align: string;
  /** `pg_stats.avg_width` of its non-null values (null without statistics). */
  avgWidth: number | null;
  /** `pg_stats.null_frac` (0 without statistics). */
  nullFrac: number;
}

const ALIGN: Record<string, number> = { c: 1, s: 2, i: 4, d: 8 };

/**
 * Bytes a stored value of `width` adds at `offset` of a tuple's data: its alignment padding (by
 * `attalign`; none for a varlena of up to 127 bytes, whose header is one byte) and itself. Heap
 * rows and index keys lay out their columns alike.
 */
export function alignedSpan(offset: number, column: { len: number; align: string }, width: number): number {
  const align = column.len > 0 || width > 127 ? (ALIGN[column.align] ?? 1) : 1;
  return ((align - (Math.round(offset) % align)) % align) + width;
}

/**
 * Average bytes a row of these columns takes on a heap page, line pointer included: the tuple
 * header (23 bytes, a null bitmap if any column has nulls, aligned to 8), each column's average
 * width with its alignment padding (a varlena of up to 127 bytes has a one-byte header and no
 * alignment), and the tuple's own alignment to 8 (on average 3.5 bytes when its length varies).
 * Null when a column has no statistics. Within 1-4 % of a page of `pgstattuple` on the shapes
 * tried (narrow, wide, jsonb, arrays, nulls).
 */
export function averageRowBytes(columns: readonly StoredColumn[]): number | null {
  let data = 0;
  let nulls = false;
  let varying = false;
  for (const c of columns) {
    if (c.avgWidth === null && c.len < 0) return null;
    const width = c.avgWidth ?? c.len;
    if (c.nullFrac > 0) nulls = true;
    if (c.len < 0) varying = true;
    data += (1 - c.nullFrac) * alignedSpan(data, c, width);
  }
  const header = Math.ceil((23 + (nulls ? Math.ceil(columns.length / 8) : 0)) / 8) * 8;
  return (varying ? header + data + 3.5 : Math.ceil((header + data) / 8) * 8) + 4;
}

/** Bytes of a heap page its rows and their line pointers may fill: 8 kB less the 24-byte page header. */
export const HEAP_PAGE_SPACE = 8192 - 24;

/**
 * A heap page's free bytes, on average: what its rows (at `rowBytes` each, line pointers
 * included) and the 24-byte page header leave of 8 kB. It holds the fillfactor's reserve and the
 * space earlier deletes freed (once vacuumed).
 */
export function freeBytesPerPage(rows: number, pages: number, rowBytes: number): number {
  return Math.max(0, HEAP_PAGE_SPACE - (rows / Math.max(1, pages)) * rowBytes);
}

/** Bytes of a heap page the fillfactor keeps for updates of its own rows (PostgreSQL clamps the setting to 10-100). */
export const fillfactorReserve = (fillfactor: number): number => (1 - Math.min(100, Math.max(10, fillfactor)) / 100) * 8192;

/**
 * Without statistics to size rows: what the fillfactor keeps free, plus half a row of slack on
 * an average page.
 */
export const fillfactorRoom = (fillfactor: number, rowBytes: number): number => fillfactorReserve(fillfactor) + rowBytes / 2;

/** Columns an UPDATE's SET assigns (`SET (a, b) = ...` included), as PostgreSQL folds their names. */
export function assignedColumns(stmt: ParsedStatement): Set<string> {
  if (nodeKind(stmt.stmt) !== 'UpdateStmt') return new Set();
  const targets = (nodeBody(stmt.stmt).targetList ?? []) as AstNode[];
  return new Set(targets.map((t) => String((t.ResTarget as AstNode | undefined)?.name ?? '')).filter(Boolean));
}

/**
 * Names an expression as `pg_get_expr` prints it may read: its identifiers, quoted ones as
 * written, others folded to lower case. Function and type names come along; a column named like
 * one is taken as read, which only errs towards index work.
 */
export function expressionNames(text: string): Set<string> {
  const out = new Set<string>();
  // String literals first, so that their words are not taken for names.
  const code = text.replace(/'(?:[^']|'')*'/g, "''");
  for (const m of code.matchAll(/"((?:[^"]|"")+)"|[A-Za-z_][A-Za-z0-9_$]*/g)) out.add(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[0].toLowerCase());
  return out;
}
