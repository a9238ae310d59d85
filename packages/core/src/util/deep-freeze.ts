/**
 * Freezes `value` and every object and array reachable from it, and returns it: a structure
 * several callers share read-only, where a write would otherwise change what the next caller
 * reads. A write to it then throws (modules run in strict mode) instead of passing unnoticed.
 */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) pending.push(child);
  }
  return value;
}
