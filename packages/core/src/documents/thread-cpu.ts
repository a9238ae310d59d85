import { readFileSync } from 'node:fs';

/**
 * Per-thread CPU time on Linux, read from procfs: a worker thread reports its kernel thread id
 * once, and its CPU time is then read from outside while it runs (a thread busy in one long
 * synchronous parse cannot be asked). Elsewhere both answer undefined and callers fall back to
 * wall time.
 */

/** Clock ticks per second of procfs's utime/stime: USER_HZ, 100 on every Linux build Node supports. */
const TICKS_PER_SECOND = 100;

/** The calling thread's kernel id (read synchronously, so on the thread itself and not on libuv's pool). */
export function ownThreadId(): number | undefined {
  try {
    const id = Number(readFileSync('/proc/thread-self/stat', 'latin1').split(' ', 1)[0]);
    return Number.isInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/** CPU milliseconds (user + system) the thread `tid` of this process has used, or undefined. */
export function threadCpuMs(tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}
