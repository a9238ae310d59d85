import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { ServiceSettings } from '../config';
import { AppError } from '../errors/app-error';

/** Addresses a hosted service must not be pointed at: loopback, link-local (metadata), private. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** True for a loopback, link-local, private or otherwise internal address. */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
}

/** The host policy from settings (documented in docs/connections.md). */
export interface HostPolicy {
  blockInternal: boolean;
  /** Host names, addresses or CIDR ranges that are allowed even when internal. */
  allowed: readonly string[];
}

/**
 * `DBOPS_BLOCK_PRIVATE_HOSTS` (true/false) wins; otherwise blocking is on in cloud mode.
 * `DBOPS_ALLOWED_HOSTS` is a comma-separated allow-list of names, addresses and CIDRs.
 */
export function hostPolicy(settings: ServiceSettings): HostPolicy {
  const { blockPrivateHosts, allowedHosts } = settings.connections;
  return { blockInternal: blockPrivateHosts ?? settings.mode === 'cloud', allowed: allowedHosts };
}

function allowedBy(entry: string, host: string, address: string): boolean {
  if (entry === host) return true;
  const slash = entry.indexOf('/');
  if (slash < 0) return entry === address.toLowerCase();
  const net = entry.slice(0, slash);
  const prefix = Number(entry.slice(slash + 1));
  const family = isIP(net);
  if (!family || !Number.isInteger(prefix)) return false;
  const list = new BlockList();
  list.addSubnet(net, prefix, family === 4 ? 'ipv4' : 'ipv6');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
  const af = isIP(mapped);
  return af !== 0 && list.check(mapped, af === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Rejects (CONNECTION_REJECTED) a host that resolves to an internal address when the policy
 * blocks them. Every address the name resolves to is checked, so one public record does not
 * smuggle in a private one.
 */
export async function assertHostAllowed(policy: HostPolicy, host: string): Promise<void> {
  if (!policy.blockInternal) return;
  const name = host.toLowerCase();
  if (policy.allowed.includes(name)) return;
  let addresses: string[];
  if (isIP(name)) addresses = [name];
  else {
    try {
      addresses = (await lookup(name, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      // Unresolvable now: the reachability check reports it as host_not_found.
      return;
    }
  }
  const bad = addresses.filter((a) => isInternalAddress(a) && !policy.allowed.some((entry) => allowedBy(entry, name, a)));
  if (bad.length > 0) {
    throw new AppError(
      'CONNECTION_REJECTED',
      `Host "${host}" resolves to a loopback, link-local or private address, which this service does not connect to; ask the operator to add it to DBOPS_ALLOWED_HOSTS if it is intended.`,
      { details: { reason: 'host_not_allowed' } },
    );
  }
}
