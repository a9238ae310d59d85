/**
 * pgvector's text form with 7 significant digits: about half the bytes of `String(number)` for
 * the same float4 precision pgvector stores, which matters when a batch carries thousands of vectors.
 */
export const compactPgVector = (v: readonly number[]): string => `[${v.map((x) => (x === 0 ? '0' : Number(x.toPrecision(7)))).join(',')}]`;
