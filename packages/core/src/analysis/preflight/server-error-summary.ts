import { pgCode } from './preflight-session';

/** Longest summary kept: a detail is one sentence, not a dump. */
const MAX_CHARS = 160;

/**
 * A server error as the preflight may repeat it: the SQLSTATE and PostgreSQL's sentence with
 * every quoted part replaced by `"…"`. PostgreSQL quotes the offending value in most data errors
 * (`invalid input syntax for type integer: "…"`, `value "…" is out of range`) and file paths in
 * file errors, so the raw message can carry live data the masking of example values never saw,
 * or the content of whatever an expression read. The examples the checks show are read and
 * masked separately (`sensitive-values.ts`).
 */
export function serverErrorSummary(error: unknown): string {
  return `${pgCode(error) ?? 'error'}: ${serverMessageSummary(error instanceof Error ? error.message : String(error))}`;
}

/** A server message with its quoted parts (values, paths, text read) replaced by `"…"`, shortened. */
export function serverMessageSummary(message: string): string {
  const text = message
    .replace(/"(?:[^"]|"")*"/g, '"…"')
    .replace(/'(?:[^']|'')*'/g, "'…'")
    // A quote left open (a message cut short) hides everything after it.
    .replace(/(["'])[^"'…]*$/, '$1…')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}
