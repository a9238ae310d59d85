import type { ValidationIssue } from '@dbops/core/errors';

/** Walks at most this many values; validated input is small, and a walk must stay bounded. */
const MAX_VALUES = 100_000;

/**
 * The first string in `value` that holds a NUL character, with its path. PostgreSQL cannot
 * store or run text with NUL (`invalid byte sequence for encoding "UTF8": 0x00`), so such a
 * value is refused as input instead of failing later in the state store or on the database.
 * Iterative, so a deeply nested value cannot exhaust the stack.
 */
export function findNulString(value: unknown): { path: Array<string | number>; value: string } | null {
  const stack: Array<[unknown, Array<string | number>]> = [[value, []]];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_VALUES) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return { path, value: v };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\u0000')) return { path: [...path, k], value: k };
        stack.push([child, [...path, k]]);
      }
    }
  }
  return null;
}

/** The spec's validation entry for a string with a NUL character. */
export function nulIssue(location: string, found: { path: Array<string | number>; value: string }): ValidationIssue {
  return {
    loc: [location, ...found.path],
    msg: 'String should not contain NUL characters (\\u0000)',
    type: 'string_nul_character',
    input: found.value,
    ctx: {},
  };
}
