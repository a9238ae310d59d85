import { AppError } from '../errors/app-error';

/**
 * Seconds a refused caller is told to wait: most analyses end within a second or two, and the
 * longest within the sandbox's 25 s deadline; 5 s is a retry that usually finds a slot free.
 */
export const ANALYSIS_RETRY_AFTER_SECONDS = 5;

/** Analyses running now in this process, per user. */
const running = new Map<string, number>();

/**
 * A slot for one more analysis of `userId`, when fewer than `limit` of theirs run in this
 * process; the returned function gives it back (once, however often it is called). Check and
 * count happen in one synchronous step, so the limit is exact under any concurrency within the
 * process. Over the limit: `RATE_LIMITED` (429) with `Retry-After`, before the request is
 * charged and before the sandbox is touched, so one user's burst of analyses cannot take the
 * sandbox server's connections and memory from everyone else.
 */
export function takeAnalysisSlot(userId: string, limit: number): () => void {
  const now = running.get(userId) ?? 0;
  if (now >= limit) {
    throw new AppError(
      'RATE_LIMITED',
      `At most ${limit} migration analyses of one user run at once; ${now} of yours are running. Retry after ${ANALYSIS_RETRY_AFTER_SECONDS} s.`,
      {
        headers: { 'Retry-After': String(ANALYSIS_RETRY_AFTER_SECONDS) },
        details: { limit, running: now, retry_after_seconds: ANALYSIS_RETRY_AFTER_SECONDS },
      },
    );
  }
  running.set(userId, now + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    const left = (running.get(userId) ?? 1) - 1;
    if (left > 0) running.set(userId, left);
    else running.delete(userId);
  };
}
