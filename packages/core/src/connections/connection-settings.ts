import type { ServiceSettings } from '../config';

/**
 * How long registration and update wait for the user's database to accept a connection
 * (`DBOPS_CONNECT_TIMEOUT_MS`, default 5000).
 */
export const connectTimeoutMs = (settings: ServiceSettings): number => settings.connections.connectTimeoutMs;
