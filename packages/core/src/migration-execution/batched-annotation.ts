import { leadingComments } from '../pg/leading-comments';
import { quoteIdent } from '../pg/quote';

/**
 * A batched step as the migration's own text says it: a comment directly before an `UPDATE` or
 * `DELETE`, `-- dbops:batched key=id size=5000 pause_ms=0`. The approval token binds the text,
 * so the batching is approved with it; anything that runs the script plainly (psql, the
 * sandbox) runs the statement whole and reaches the same end state.
 */
export interface BatchAnnotation {
  /** The key column the batches are ranges of, unquoted (`"Id"` is read as `Id`). */
  key: string;
  /** Rows per batch. */
  size: number;
  /** Pause between batches, in milliseconds (the throttle). */
  pauseMs: number;
}

/** The executor's defaults when the annotation leaves `size` or `pause_ms` out (docs/migration-analysis.md, Safe plans). */
export const BATCH_DEFAULTS = { size: 5000, pauseMs: 0 } as const;
/** Bounds of the options: a batch of more rows holds more row locks at once; a longer pause only slows the run. */
export const BATCH_LIMITS = { maxSize: 1_000_000, maxPauseMs: 60_000 } as const;

const MARKER = 'dbops:batched';

/** The annotation comment (one line, without a newline). */
export function batchAnnotationComment(a: BatchAnnotation): string {
  return `-- ${MARKER} key=${quoteIdent(a.key)} size=${a.size} pause_ms=${a.pauseMs}`;
}

/**
 * The annotation among the comments before the statement's first token: null when there is
 * none, `{error}` when the marker is there but its options are not understood (the executor
 * refuses such a step rather than run it any other way than it says).
 */
export function readBatchAnnotation(statementText: string): BatchAnnotation | { error: string } | null {
  const found = leadingComments(statementText).filter((c) => c === MARKER || c.startsWith(`${MARKER} `));
  if (found.length === 0) return null;
  if (found.length > 1) return { error: 'more than one dbops:batched comment before the statement' };
  const options = parseOptions(found[0]!.slice(MARKER.length));
  if (typeof options === 'string') return { error: options };
  const unknown = [...options.keys()].find((k) => !['key', 'size', 'pause_ms'].includes(k));
  if (unknown) return { error: `unknown option ${unknown} (known: key, size, pause_ms)` };
  const [key, size, pause] = [options.get('key'), options.get('size'), options.get('pause_ms')];
  if (key === undefined) return { error: 'key=<column> is required' };
  const sizeN = size === undefined ? BATCH_DEFAULTS.size : wholeNumber(size);
  if (sizeN === null || sizeN < 1 || sizeN > BATCH_LIMITS.maxSize) return { error: `size must be a whole number from 1 to ${BATCH_LIMITS.maxSize}` };
  const pauseN = pause === undefined ? BATCH_DEFAULTS.pauseMs : wholeNumber(pause);
  if (pauseN === null || pauseN > BATCH_LIMITS.maxPauseMs) return { error: `pause_ms must be a whole number from 0 to ${BATCH_LIMITS.maxPauseMs}` };
  return { key, size: sizeN, pauseMs: pauseN };
}

const wholeNumber = (s: string): number | null => (/^\d{1,9}$/.test(s) ? Number(s) : null);

/** `name=value` pairs, or what cannot be read; a value is a bare word or a double-quoted identifier (`""` inside for `"`). */
function parseOptions(text: string): Map<string, string> | string {
  const out = new Map<string, string>();
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) return out;
    const name = /^([a-z_]+)=/.exec(text.slice(i));
    if (!name) return `cannot read "${text.slice(i).split(/\s/)[0]}" (expected name=value)`;
    i += name[0].length;
    let value: string;
    if (text[i] === '"') {
      let j = i + 1;
      value = '';
      for (;;) {
        if (j >= text.length) return `unterminated quoted ${name[1]}`;
        if (text[j] === '"') {
          if (text[j + 1] !== '"') break;
          value += '"';
          j += 2;
        } else value += text[j++];
      }
      i = j + 1;
      if (value === '') return `empty ${name[1]}`;
    } else {
      const bare = /^[^\s"]+/.exec(text.slice(i));
      if (!bare) return `${name[1]} has no value`;
      value = bare[0];
      i += value.length;
      // Unquoted, an identifier folds to lower case, as PostgreSQL folds it.
      if (name[1] === 'key') value = value.toLowerCase();
    }
    if (out.has(name[1]!)) return `${name[1]} is given twice`;
    out.set(name[1]!, value);
  }
}
