const fmtCost = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 }));

/** "about 40x lower estimated cost (12,400 -> 310)", or a percentage below a 2x gain. */
export function improvementText(before: number, after: number): string {
  const pair = `(${fmtCost(before)} -> ${fmtCost(after)})`;
  if (after >= before) return `no lower estimated cost ${pair}`;
  const ratio = after > 0 ? before / after : Infinity;
  if (ratio >= 2) {
    const r = ratio >= 10 ? Math.round(ratio).toLocaleString('en-US') : ratio.toFixed(1).replace(/\.0$/, '');
    return `about ${ratio === Infinity ? 'infinitely' : `${r}x`} lower estimated cost ${pair}`;
  }
  return `about ${Math.max(1, Math.round((1 - after / before) * 100))}% lower estimated cost ${pair}`;
}
