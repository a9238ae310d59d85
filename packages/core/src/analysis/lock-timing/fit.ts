/**
 * Non-negative least squares on relative error: finds coefficients b >= 0 minimising
 * sum(((X b - y) / max(y, floor))^2), so a 10 ms point weighs as much as a 10 s one; below
 * `floor` (ms) errors count in absolute terms, for times within the timer's and scheduler's noise. Small dense problems
 * only (a handful of features): normal equations, and features whose coefficient comes out
 * negative are dropped and the rest refitted.
 */
export function fitRelative(x: number[][], y: number[], floor = 0): number[] {
  const n = x[0]?.length ?? 0;
  let active = Array.from({ length: n }, (_, i) => i);
  // Relative to max(y, floor): a point timed below the floor weighs as much as one at the floor.
  const scale = y.map((v) => Math.max(v, floor));
  for (;;) {
    const rows = x.map((r, k) => active.map((j) => r[j]! / scale[k]!));
    const rhs = y.map((v, k) => v / scale[k]!);
    const sol = solveLeastSquares(rows, rhs);
    const negative = sol.findIndex((v) => v < 0 || !Number.isFinite(v));
    if (negative < 0 || active.length === 1) {
      const out = new Array<number>(n).fill(0);
      active.forEach((j, i) => (out[j] = Math.max(0, sol[i] ?? 0)));
      return out;
    }
    active = active.filter((_, i) => i !== negative);
  }
}

/** Least squares by the normal equations with partial pivoting (ridge-damped a hair for collinear columns). */
function solveLeastSquares(a: number[][], b: number[]): number[] {
  const n = a[0]?.length ?? 0;
  const m: number[][] = Array.from({ length: n }, (_, i) => {
    const row = Array.from({ length: n + 1 }, () => 0);
    for (let j = 0; j < n; j++) for (const r of a) row[j]! += r[i]! * r[j]!;
    for (let k = 0; k < a.length; k++) row[n]! += a[k]![i]! * b[k]!;
    row[i]! += 1e-9 * (row[i]! || 1);
    return row;
  });
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const piv = m[c]![c]!;
    if (Math.abs(piv) < 1e-300) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / piv;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-300 ? 0 : row[n]! / row[i]!));
}
