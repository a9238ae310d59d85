/** ISO 8601 text of a timestamp column, whichever driver produced it. */
export function iso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return new Date(value).toISOString();
  throw new TypeError('not a timestamp');
}

/** Like {@link iso}, but null stays null. */
export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : iso(value);
}
