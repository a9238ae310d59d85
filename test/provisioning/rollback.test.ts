import type { KeyProvider } from '@dbops/core/crypto';
import { provisionDatabase, type ProvisionDeps } from '@dbops/core/provisioning';
import { domainDeps } from '@dbops/functions/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { startProvisioningRuntime } from '../support/provisioning';

let env: Awaited<ReturnType<typeof startProvisioningRuntime>>;
let deps: ProvisionDeps;
let userId: string;

beforeAll(async () => {
  env = await startProvisioningRuntime();
  const jwt = await env.t.jwt('frank');
  expect((await env.t.request('GET', '/provision', { jwt })).status).toBe(200);
  const container = env.t.runtime.container;
  userId = (await container.store.query<{ id: string }>("SELECT id FROM users WHERE subject = 'frank'")).rows[0]!.id;
  deps = { ...domainDeps(container), sharedInstance: { adminUrl: async () => env.adminUrl } };
}, 60_000);
afterAll(async () => env?.close());

/**
 * Everything a provision could leave behind: tenants on the instance, rows in the service store.
 * Roles are cluster-wide and other test files provision on the same server, so only roles that
 * may connect to this file's database (PUBLIC's CONNECT is revoked there) are counted.
 */
async function leftovers() {
  const onInstance = await sql<{ n: number }>(
    env.adminUrl,
    "SELECT (SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'dbops\\_%') + (SELECT count(*) FROM pg_roles WHERE rolname LIKE 'dbops\\_%' AND has_database_privilege(rolname, current_database(), 'CONNECT')) AS n",
  );
  const store = env.t.runtime.container.store;
  const rows = await store.query<{ n: string }>('SELECT count(*)::text AS n FROM provisioned_databases WHERE user_id = $1', [userId]);
  const connections = await store.query<{ n: string }>('SELECT count(*)::text AS n FROM connections WHERE user_id = $1', [userId]);
  return { instance: Number(onInstance[0]!.n), rows: Number(rows.rows[0]!.n), connections: Number(connections.rows[0]!.n) };
}

const nothing = { instance: 0, rows: 0, connections: 0 };

describe('a half-failed provision leaves nothing behind', () => {
  it('when a step after the tenant was created fails', async () => {
    const error = await provisionDatabase(deps, userId, 'doomed', {
      afterTenantCreated: async () => {
        // The tenant really exists at this point, so the cleanup below is not vacuous.
        expect((await leftovers()).instance).toBe(2);
        throw new Error('simulated crash');
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVISIONING_FAILED', status: 502 });
    expect(await leftovers()).toEqual(nothing);
  });

  it('when registering the connection fails (key provider down)', async () => {
    const broken: KeyProvider = {
      name: 'broken',
      generateDataKey: async () => {
        throw new Error('KMS unavailable');
      },
      decryptDataKey: async () => {
        throw new Error('KMS unavailable');
      },
    };
    const error = await provisionDatabase({ ...deps, keyProvider: broken }, userId, 'doomed').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVISIONING_FAILED' });
    expect(await leftovers()).toEqual(nothing);
  });

  it('when the shared instance cannot be reached; the slot is released', async () => {
    const unreachable = { adminUrl: async () => 'postgresql://admin:pw@127.0.0.1:1/none?sslmode=disable' };
    const error = await provisionDatabase({ ...deps, sharedInstance: unreachable }, userId, 'doomed').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVISIONING_FAILED' });
    expect((error as Error).message).not.toContain('127.0.0.1');
    expect(await leftovers()).toEqual(nothing);
  });

  it('and a later provision still succeeds and counts from zero', async () => {
    const created = await provisionDatabase(deps, userId, 'fine');
    expect(created.status).toBe('active');
    expect(await leftovers()).toEqual({ instance: 2, rows: 1, connections: 1 });
  });

  it('over HTTP the failure is a 502 envelope without internals', { timeout: 120_000 }, async () => {
    const t2 = await (
      await import('../support/test-runtime')
    ).startTestRuntime({
      env: { DBOPS_SHARED_INSTANCE_URL: 'postgresql://admin:hunter2@127.0.0.1:1/none?sslmode=disable' },
    });
    try {
      const res = await t2.request('POST', '/provision', { jwt: await t2.jwt('gina'), body: { name: 'x' } });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('PROVISIONING_FAILED');
      expect(res.text).not.toMatch(/hunter2|127\.0\.0\.1|stack/);
      expect((await t2.request('GET', '/provision', { jwt: await t2.jwt('gina') })).body.data.count).toBe(0);
    } finally {
      await t2.close();
    }
  });
});
