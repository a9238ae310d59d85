import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { startProvisioningRuntime } from '../support/provisioning';
import type { TestRuntime } from '../support/test-runtime';

let env: Awaited<ReturnType<typeof startProvisioningRuntime>>;
let t: TestRuntime;

beforeAll(async () => {
  env = await startProvisioningRuntime();
  t = env.t;
}, 60_000);
afterAll(async () => env?.close());

const tenantCount = async (schema: string): Promise<number> =>
  (
    await sql<{ n: number }>(
      env.adminUrl,
      'SELECT (SELECT count(*) FROM pg_namespace WHERE nspname = $1)::int + (SELECT count(*) FROM pg_roles WHERE rolname LIKE $2)::int AS n',
      [schema, `${schema}%`],
    )
  )[0]!.n;

describe('deleting a managed database', () => {
  it('five concurrent deletes: exactly one 200, the rest 404, and the tenant is gone', async () => {
    const jwt = await t.jwt('racer');
    const created = await t.request('POST', '/provision', { jwt, body: { name: 'race' } });
    expect(created.status).toBe(201);
    const { id, schema_name: schema } = created.body.data;
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => t.request('DELETE', `/provision/${id}`, { jwt })));
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toEqual([200, 404, 404, 404, 404]);
    for (const a of answers.filter((x) => x.status === 404)) expect(a.body.error.code).toBe('NOT_FOUND');
    expect(await tenantCount(schema)).toBe(0);
    expect((await t.request('GET', '/provision', { jwt })).body.data.count).toBe(0);
  }, 90_000);

  it('malformed ids answer 404 or 422, never 5xx', async () => {
    const jwt = await t.jwt('typo');
    const created = await t.request('POST', '/provision', { jwt, body: { name: 'kept' } });
    const id: string = created.body.data.id;
    const paths = [
      `/provision/${id.toUpperCase()}x`,
      `/provision//${id}`,
      `/provision/${id}//`,
      `/provision/${id.slice(0, 35)}`,
      `/provision/${id}%2F`,
      `/provision/%zz`,
      `/provision/${'A'.repeat(36)}`,
    ];
    for (const p of paths) {
      const res = await t.request('DELETE', p, { jwt });
      expect([404, 422], `${p}: ${res.status} ${res.text}`).toContain(res.status);
    }
    // None of them touched the database; its own id still deletes it, in any letter case.
    expect((await t.request('GET', '/provision', { jwt })).body.data.count).toBe(1);
    expect((await t.request('DELETE', `/provision/${id.toUpperCase()}`, { jwt })).status).toBe(200);
    expect((await t.request('DELETE', `/provision/${id}`, { jwt })).status).toBe(404);
  }, 60_000);
});
