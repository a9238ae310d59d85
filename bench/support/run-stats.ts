import os from 'node:os';

/** The middle value (the upper one of an even count), NaN for none. */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The machine's 1, 5 and 15-minute load averages, printed beside every figure a bench gives. */
export const loadAverage = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
