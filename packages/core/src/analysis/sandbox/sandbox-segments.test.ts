import { afterAll, describe, expect, it } from 'vitest';
import { parseStatements } from '../parse-statements';
import { shopSnapshot } from '../test-schema';
import { planMigration, segmentPlan } from '../../migration-execution/migration-plan';
import { sandboxSegments } from './sandbox-run';
import { closeSandboxSpare } from './sandbox-pool';
import { sandboxOnText } from '../../../../../test/support/sandbox-on-text';

// The sandbox and the executor run a migration in the same transactions (issue #36): both take
// their segments from migration-execution's planning, so what passes here is what runs there.

const SCRIPTS = [
  'LOCK TABLE orders IN ACCESS EXCLUSIVE MODE; ALTER TABLE orders ADD COLUMN note text',
  "BEGIN; SET LOCAL lock_timeout = '1s'; ALTER TABLE orders ADD COLUMN a text; COMMIT; CREATE INDEX CONCURRENTLY oa ON orders (a); ALTER TABLE orders ADD COLUMN b text",
  "ALTER TYPE order_status ADD VALUE 'refunded'; COMMIT; UPDATE orders SET status = 'refunded' WHERE id = 1",
  'SAVEPOINT s; ALTER TABLE orders ADD COLUMN c text; ROLLBACK TO SAVEPOINT s; RELEASE SAVEPOINT s; VACUUM orders; DROP INDEX CONCURRENTLY orders_customer_id_idx',
];

describe('one execution model for the sandbox and the executor', () => {
  afterAll(closeSandboxSpare);

  it.each(SCRIPTS)('segments %s as the executor does', async (sql) => {
    const executor = segmentPlan(await planMigration(sql, 170000)).map((s) => [s.transactional, s.statements.map((x) => x.index)]);
    const sandbox = sandboxSegments(await parseStatements(sql), 170000).map((s) => [s.transactional, s.statements.map((x) => x.index)]);
    expect(sandbox).toEqual(executor);
  });

  it('runs LOCK TABLE inside the transaction it will have on the target', async () => {
    const r = await sandboxOnText(shopSnapshot(), SCRIPTS[0]!);
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
  }, 120_000);

  it('honours SAVEPOINT and the script own COMMIT, and refuses a new enum value used in the transaction that added it', async () => {
    const savepoint = await sandboxOnText(
      shopSnapshot(),
      'SAVEPOINT s; UPDATE orders SET total = total WHERE id = 1; ROLLBACK TO SAVEPOINT s; RELEASE SAVEPOINT s',
    );
    expect(savepoint.migration_error).toBeNull();
    const committed = await sandboxOnText(shopSnapshot(), SCRIPTS[2]!);
    expect(committed.migration_error).toBeNull();
    const oneTransaction = await sandboxOnText(
      shopSnapshot(),
      "ALTER TYPE order_status ADD VALUE 'refunded'; UPDATE orders SET status = 'refunded' WHERE id = 1",
    );
    expect(oneTransaction.passed).toBe(false);
    expect(oneTransaction.migration_error).toMatch(/^Statement 1 \(UPDATE\) failed: unsafe use of new value "refunded"/);
  }, 120_000);
});
