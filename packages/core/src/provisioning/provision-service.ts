import { randomUUID } from 'node:crypto';
import { createConnection, deactivateConnection } from '../connections/connection-service';
import { isConnectionId } from '../connections/connection-id';
import { forgetConnectionTarget } from '../connections/load-connection-target';
import type { KeyProvider } from '../crypto/key-provider';
import type { CoreDeps } from '../deps';
import { AppError, notFound } from '../errors/app-error';
import { PROVISION_LIMIT } from './provision-limits';
import { PROVISIONED_COLUMNS, type ProvisionedDatabaseView, type ProvisionedRow, toProvisionedView } from './provisioned-view';
import type { SharedInstance } from './shared-instance';
import { connectSharedInstance, tenantConnectionString } from './shared-instance-client';
import { createTenant, dropTenant } from './tenant-ddl';
import { tenantNames, tenantPassword } from './tenant-names';

/** How long a delete's claim protects it; a claim this old was left by a process that died. */
const CLAIM_TTL_MS = 10 * 60_000;

/** What provisioning needs: the service store, the key provider (connection secrets) and the shared instance. */
export type ProvisionDeps = CoreDeps & { keyProvider: KeyProvider; sharedInstance: SharedInstance };

/** Creation answer: the resource plus, this once, the tenant's connection string. */
export type CreatedProvisionedDatabase = ProvisionedDatabaseView & { connection_string: string };

/** Test seam: runs between the steps of {@link provisionDatabase} so tests can fail one. */
export interface ProvisionHooks {
  afterTenantCreated?: () => Promise<void>;
}

/**
 * Creates a managed database, all or nothing: a slot is reserved under the per-user limit, the
 * tenant (role + schema) is created on the shared instance in one transaction, the tenant's
 * string is registered as a connection (encrypted like any other) and the row turns `active`.
 * When any step fails, the steps already done are undone (tenant dropped, connection
 * deactivated, slot released) and PROVISIONING_FAILED (502) is thrown.
 */
export async function provisionDatabase(deps: ProvisionDeps, userId: string, name: string, hooks: ProvisionHooks = {}): Promise<CreatedProvisionedDatabase> {
  const id = randomUUID();
  const names = tenantNames(id);
  await reserveSlot(deps, userId, id, name, names);

  const adminUrl = await deps.sharedInstance.adminUrl().catch(async (error: unknown) => {
    await releaseSlot(deps, id);
    throw error;
  });
  const password = tenantPassword();
  let tenantCreated = false;
  let connectionId: string | undefined;
  try {
    const admin = await connectSharedInstance(adminUrl);
    try {
      await createTenant(admin, { ...names, password });
    } finally {
      await admin.end().catch(() => undefined);
    }
    tenantCreated = true;
    await hooks.afterTenantCreated?.();
    const connectionString = tenantConnectionString(adminUrl, names.roleName, password);
    const connection = await createConnection(deps, userId, { name, dbType: 'postgresql', connectionString }, { skipProbe: true });
    connectionId = connection.id;
    const res = await deps.store.query<ProvisionedRow>(
      `UPDATE provisioned_databases SET status = 'active', connection_id = $2 WHERE id = $1 RETURNING ${PROVISIONED_COLUMNS}`,
      [id, connectionId],
    );
    return { ...toProvisionedView(res.rows[0]!), connection_string: connectionString };
  } catch (error) {
    await undo(deps, userId, id, names, { tenantCreated, connectionId, adminUrl });
    // Whatever failed here (even a 4xx-coded connect failure) is the service's problem, not the caller's.
    // The cause stays server-side: it may name the shared instance's host or role.
    throw new AppError('PROVISIONING_FAILED', 'The managed database could not be created; nothing was left behind. Try again later.', { cause: error });
  }
}

async function reserveSlot(deps: ProvisionDeps, userId: string, id: string, name: string, names: { schemaName: string; roleName: string }): Promise<void> {
  await deps.store.transaction(async (tx) => {
    // Locking the user's row makes the count-then-insert atomic against concurrent requests.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const used = await tx.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM provisioned_databases WHERE user_id = $1 AND status IN ('provisioning', 'active', 'deleting')`,
      [userId],
    );
    if (Number(used.rows[0]!.n) >= PROVISION_LIMIT) {
      throw new AppError('PROVISION_LIMIT_REACHED', `You already have ${PROVISION_LIMIT} managed databases, the most allowed; delete one first.`, {
        details: { limit: PROVISION_LIMIT },
      });
    }
    await tx.query(
      `INSERT INTO provisioned_databases (id, user_id, name, schema_name, role_name, status, created_at)
       VALUES ($1, $2, $3, $4, $5, 'provisioning', $6)`,
      [id, userId, name, names.schemaName, names.roleName, deps.clock.now()],
    );
  });
}

const releaseSlot = async (deps: ProvisionDeps, id: string): Promise<void> => {
  await deps.store.query('DELETE FROM provisioned_databases WHERE id = $1', [id]);
};

/** Best-effort compensation; each step runs even when an earlier one fails. */
async function undo(
  deps: ProvisionDeps,
  userId: string,
  id: string,
  names: { schemaName: string; roleName: string },
  done: { tenantCreated: boolean; connectionId: string | undefined; adminUrl: string },
): Promise<void> {
  if (done.connectionId) {
    await deps.store.query('UPDATE provisioned_databases SET connection_id = NULL WHERE id = $1', [id]).catch(() => undefined);
    await deps.store.query('DELETE FROM connections WHERE id = $1 AND user_id = $2', [done.connectionId, userId]).catch(() => undefined);
    forgetConnectionTarget(done.connectionId);
  }
  if (done.tenantCreated) {
    const admin = await connectSharedInstance(done.adminUrl).catch(() => undefined);
    if (admin) {
      await dropTenant(admin, names).catch(() => undefined);
      await admin.end().catch(() => undefined);
    }
  }
  await releaseSlot(deps, id).catch(() => undefined);
}

/** The caller's managed databases (active ones), oldest first. */
export async function listProvisionedDatabases(
  deps: CoreDeps,
  userId: string,
): Promise<{ databases: ProvisionedDatabaseView[]; count: number; limit: number }> {
  const res = await deps.store.query<ProvisionedRow>(
    `SELECT ${PROVISIONED_COLUMNS} FROM provisioned_databases WHERE user_id = $1 AND status = 'active' ORDER BY created_at, id`,
    [userId],
  );
  const databases = res.rows.map(toProvisionedView);
  return { databases, count: databases.length, limit: PROVISION_LIMIT };
}

/**
 * Drops a managed database for good: its sessions are terminated, the schema with all its
 * data and the role are dropped, its connection is deactivated and the row becomes `deleted`.
 * NOT_FOUND for another user's id, an unknown id or one already deleted.
 */
export async function deleteProvisionedDatabase(deps: ProvisionDeps, userId: string, provisionId: string): Promise<ProvisionedDatabaseView> {
  if (!isConnectionId(provisionId)) throw notFound('Provisioned database');
  // Claimed in one statement: of concurrent deletes exactly one gets the row, the others 404.
  // A claim older than CLAIM_TTL is one whose process died; dropping is idempotent, so it is retaken.
  const now = deps.clock.now();
  const claimed = await deps.store.query<ProvisionedRow & { role_name: string }>(
    `UPDATE provisioned_databases SET status = 'deleting', deleted_at = $3
      WHERE id = $1 AND user_id = $2 AND (status = 'active' OR (status = 'deleting' AND deleted_at < $4))
      RETURNING ${PROVISIONED_COLUMNS}, role_name`,
    [provisionId, userId, now, new Date(now.getTime() - CLAIM_TTL_MS)],
  );
  const row = claimed.rows[0];
  if (!row) throw notFound('Provisioned database');
  try {
    const admin = await connectSharedInstance(await deps.sharedInstance.adminUrl());
    try {
      await dropTenant(admin, { schemaName: row.schema_name, roleName: row.role_name });
    } finally {
      await admin.end().catch(() => undefined);
    }
  } catch (error) {
    await deps.store
      .query(`UPDATE provisioned_databases SET status = 'active', deleted_at = NULL WHERE id = $1 AND status = 'deleting'`, [provisionId])
      .catch(() => undefined);
    throw new AppError('PROVISIONING_FAILED', 'The managed database could not be dropped; it is unchanged or partly dropped. Try again.', { cause: error });
  }
  if (row.connection_id) await deactivateConnection(deps, userId, row.connection_id).catch(() => undefined);
  const res = await deps.store.query<ProvisionedRow>(
    `UPDATE provisioned_databases SET status = 'deleted', deleted_at = $3 WHERE id = $1 AND user_id = $2 RETURNING ${PROVISIONED_COLUMNS}`,
    [provisionId, userId, deps.clock.now()],
  );
  return toProvisionedView(res.rows[0]!);
}
