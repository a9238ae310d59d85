/** A cell normalised for comparison: numbers to 2 decimals, dates to ISO, null spelled out. */
export function normalizeCell(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Date) return v.toISOString();
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s).toFixed(2) : s;
}

const sortedColumn = (rows: readonly string[][], i: number): string =>
  rows
    .map((r) => r[i]!)
    .sort()
    .join('\u0001');

/**
 * Execution accuracy: the generated query returns the same rows as the reference. Row order
 * is ignored, and so are extra columns of the generated result (`SELECT *` where the
 * reference picks `name`): every reference column must match a distinct generated column,
 * and the rows projected onto those columns must equal the reference rows as a multiset.
 */
export function sameResult(reference: readonly unknown[][], generated: readonly unknown[][]): boolean {
  if (reference.length !== generated.length) return false;
  if (reference.length === 0) return true;
  const ref = reference.map((r) => r.map(normalizeCell));
  const gen = generated.map((r) => r.map(normalizeCell));
  const width = gen[0]!.length;
  const used = new Set<number>();
  const mapping: number[] = [];
  for (let j = 0; j < ref[0]!.length; j++) {
    const want = sortedColumn(ref, j);
    let found = -1;
    for (let k = 0; k < width; k++) {
      if (!used.has(k) && sortedColumn(gen, k) === want) {
        found = k;
        break;
      }
    }
    if (found < 0) return false;
    used.add(found);
    mapping.push(found);
  }
  const key = (rows: string[][]) =>
    rows
      .map((r) => r.join('\u0002'))
      .sort()
      .join('\u0001');
  return key(ref) === key(gen.map((r) => mapping.map((k) => r[k]!)));
}
