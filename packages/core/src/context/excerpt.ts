import { bareTableName } from '../documents/identifiers';

/** Longest excerpt returned for a chunk, in characters. */
export const EXCERPT_CHARS = 600;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Up to {@link EXCERPT_CHARS} of a chunk, starting near the first place it names one of
 * `tables` so the reader sees why it was chosen; cut at word boundaries and marked with "…".
 */
export function excerptAround(content: string, tables: readonly string[]): string {
  const text = content.trim();
  if (text.length <= EXCERPT_CHARS) return text;
  let at = 0;
  for (const t of tables) {
    const m = new RegExp(`(^|[^A-Za-z0-9_$])${escape(bareTableName(t))}(?![A-Za-z0-9_$])`, 'i').exec(text);
    if (m && (at === 0 || m.index < at)) at = m.index;
  }
  let start = Math.max(0, Math.min(at - 150, text.length - EXCERPT_CHARS));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < start + 40 ? space + 1 : start;
  }
  let end = Math.min(text.length, start + EXCERPT_CHARS);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    end = space > start + EXCERPT_CHARS / 2 ? space : end;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
