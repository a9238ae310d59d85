import { randomBytes } from 'node:crypto';

/**
 * Schema and role names of a managed database, derived from its id: lower-case, unquoted-safe
 * and well under PostgreSQL's 63-byte identifier limit. The same text names the schema and the
 * role (they live in different namespaces), so an operator can tell them apart from nothing.
 */
export function tenantNames(provisionId: string): { schemaName: string; roleName: string } {
  const hex = provisionId.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error('provision id must be a UUID');
  return { schemaName: `dbops_${hex}`, roleName: `dbops_${hex}` };
}

/** A strong random password (192 bits), URL-safe so it needs no escaping in a connection string. */
export const tenantPassword = (): string => randomBytes(24).toString('base64url');
