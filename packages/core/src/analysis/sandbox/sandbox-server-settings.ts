import type { ServiceSettings } from '../../config';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseConnectionString } from '../../connections/connection-string';
import { defaultDeadlineMs } from './stopped-result';

/**
 * When the analysis sandbox uses the configured server: `extensions` only for snapshots PGlite
 * cannot clone (an installed extension it lacks, or an object the migration touches that it
 * refused), `always` for every analysis.
 */
export type SandboxServerMode = 'extensions' | 'always';

/** The dedicated throwaway PostgreSQL server of the analysis sandbox. */
export interface SandboxServerSettings {
  /** `DBOPS_SANDBOX_SERVER_URL`. A secret: never logged, never in a response or an error message. */
  url: string;
  /** `DBOPS_SANDBOX_SERVER_MODE`, default `extensions`. */
  mode: SandboxServerMode;
}

/** Where a connection string points. */
export interface DatabaseAddress {
  host: string;
  port: number;
  database: string;
}

const normalHost = (h: string): string => {
  const host = h
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host) ? 'loopback' : host;
};

/** Same port, database and host name (the loopback names counting as one). */
export const sameAddressByName = (a: DatabaseAddress, b: DatabaseAddress): boolean =>
  a.port === b.port && a.database === b.database && normalHost(a.host) === normalHost(b.host);

/**
 * {@link sameAddressByName}, or the two host names resolve to a common address. A name that
 * does not resolve compares by name only: the sandbox then cannot reach it either.
 */
export async function sameAddress(a: DatabaseAddress, b: DatabaseAddress): Promise<boolean> {
  if (a.port !== b.port || a.database !== b.database) return false;
  if (sameAddressByName(a, b)) return true;
  const addresses = async (host: string): Promise<string[]> => {
    const h = host.replace(/^\[(.*)\]$/, '$1');
    if (isIP(h)) return [normalHost(h) === 'loopback' ? 'loopback' : h];
    const found = await lookup(h, { all: true }).catch(() => []);
    return found.map((x) => (normalHost(x.address) === 'loopback' ? 'loopback' : x.address));
  };
  const [x, y] = await Promise.all([addresses(a.host), addresses(b.host)]);
  return x.some((v) => y.includes(v));
}

/** Host, port and database of a connection string (parsed as the service parses users' strings). */
export function databaseAddress(url: string): DatabaseAddress {
  const p = parseConnectionString(url);
  return { host: p.host, port: p.port, database: p.database };
}

/**
 * The sandbox server from the settings, or undefined when `DBOPS_SANDBOX_SERVER_URL` is unset
 * (PGlite only). Throws on a value the service cannot use, and on a server that is the service's
 * own state database or the managed-database instance: the sandbox needs a dedicated server.
 * Checked once at start (the composition root calls it), so a bad value stops the process.
 * Messages never quote the connection string.
 */
export function sandboxServerSettings(settings: ServiceSettings): SandboxServerSettings | undefined {
  const url = settings.sandbox.serverUrl;
  if (!url) return undefined;
  let address: DatabaseAddress;
  try {
    address = databaseAddress(url);
  } catch (e) {
    throw new Error(`DBOPS_SANDBOX_SERVER_URL is not usable: ${(e as Error).message}`, { cause: e });
  }
  const otherServers: Array<[string, string | undefined]> = [
    ['DBOPS_DATABASE_URL', settings.databaseUrl],
    ['DBOPS_SHARED_INSTANCE_URL', settings.sharedInstance.url],
  ];
  for (const [name, other] of otherServers) {
    if (!other) continue;
    let otherAddress: DatabaseAddress;
    try {
      otherAddress = databaseAddress(other);
    } catch {
      continue; // that setting's own reader reports it
    }
    if (sameAddressByName(address, otherAddress))
      throw new Error(`DBOPS_SANDBOX_SERVER_URL points at the same server and database as ${name}: the sandbox needs a dedicated throwaway server`);
  }
  return { url, mode: settings.sandbox.serverMode };
}

/** Room the gateway window keeps beyond a sandbox run's deadline: the snapshot, the preflight, the answer. */
const GATEWAY_MARGIN_MS = 5_000;

/**
 * Hard deadline, thread count and memory bound of sandbox runs (`DBOPS_SANDBOX_DEADLINE_MS`,
 * `DBOPS_SANDBOX_THREADS`, `DBOPS_SANDBOX_MEMORY_MB`). The deadline never reaches past the gateway
 * window (`DBOPS_GATEWAY_TIMEOUT_SECONDS`, 30 s) less 5 s: a run stopped later than that would
 * answer the gateway's timeout instead of the documented `deadline` result.
 */
export function sandboxRunSettings(settings: ServiceSettings): { deadlineMs: number; maxThreads?: number; memoryMb: number } {
  const { deadlineMs, threads, memoryMb } = settings.sandbox;
  const windowMs = Math.max(1_000, settings.gatewayTimeoutSeconds * 1000 - GATEWAY_MARGIN_MS);
  return { deadlineMs: Math.min(deadlineMs ?? defaultDeadlineMs(10_000), windowMs), ...(threads ? { maxThreads: threads } : {}), memoryMb };
}
