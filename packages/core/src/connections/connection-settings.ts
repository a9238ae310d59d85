import type { ServiceSettings } from '../config';

/**
 * How long registration and update wait for the user's database to accept a connection
 * (`DBOPS_CONNECT_TIMEOUT_MS`, default 5000).
 */
export function connectTimeoutMs(settings: ServiceSettings): number {
  const raw = settings.env.DBOPS_CONNECT_TIMEOUT_MS;
  const n = raw ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? n : 5000;
}
