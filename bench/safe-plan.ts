/**
 * Safe plans against the originals, with writers running (issue #30).
 *
 *   npx tsx bench/safe-plan.ts [--rows 2000000] [--only create-index,set-not-null] [--batch-size 5000] [--pause-ms 0]
 *
 * Builds `orders` (default 2,000,000 rows, an int serial primary key, a text column, a nullable amount) and
 * `customers` (10,000 rows) on a throwaway PostgreSQL 15, then for each pattern: two writers on
 * their own connections (one INSERT, one UPDATE of a random row, each every 5 ms) run while the
 * original migration is applied in one transaction, then again while the safe plan dbops drafts
 * for it (`draftSafePlan`, on a snapshot read from the server as the service reads it) is applied
 * statement by statement as the executor applies it (each BEGIN ... COMMIT its own transaction,
 * CONCURRENTLY alone); a plan with a batched step (`-- dbops:batched`) is run by the executor's
 * own `runMigration`, batches and lock retries included. Prints, for each, the worst single write
 * wait, the p99 and the total time, and whether the two end schemas (pg_dump -s) are the same
 * (for an expand/contract swap, which moves the column last: the same modulo column order). The
 * schema is reset between runs. `referenced-key-to-bigint` adds two tables whose foreign keys
 * reference orders.id, and a third writer inserting into one of them.
 * Needs Debian's postgresql-15 (`/usr/lib/postgresql/15/bin`).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { analyzeMigrationDetailed } from '../packages/core/src/analysis/analyze-migration';
import { draftSafePlan } from '../packages/core/src/analysis/safe-plan/draft-safe-plan';
import { buildSchemaIndex } from '../packages/core/src/analysis/schema-index';
import { readTargetSchema } from '../packages/core/src/introspection/catalog-read';
import type { SchemaSnapshot } from '../packages/core/src/introspection/schema-snapshot';
import { planMigration } from '../packages/core/src/migration-execution/migration-plan';
import { runMigration } from '../packages/core/src/migration-execution/run-migration';
import { splitStatements } from '../packages/core/src/pg/parser';
import { PG15_BIN, pg15Unavailable, startPg15 } from '../test/support/pg15-server';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '2000000' },
    only: { type: 'string' },
    // What a plan's batched steps are offered with (DBOPS_SAFE_PLAN_BATCH_SIZE / _PAUSE_MS); the executor's defaults when absent.
    'batch-size': { type: 'string', default: '5000' },
    'pause-ms': { type: 'string', default: '0' },
  },
});
const BATCHING = { size: Number(values['batch-size']), pauseMs: Number(values['pause-ms']) };
const ROWS = Number(values.rows);

interface Pattern {
  name: string;
  migration: string;
  /** Brings the schema back to the starting point after either run. */
  reset: string;
  /** The plan moves a column last (expand/contract): the end schemas are compared modulo column order. */
  reorders?: boolean;
  /** Run before the pattern (its own tables), and undone after it. */
  setup?: string;
  teardown?: string;
  /** A third writer's statement, every 5 ms beside the two on orders. */
  extraWrite?: string;
}

const PATTERNS: Pattern[] = [
  { name: 'create-index', migration: 'CREATE INDEX orders_note_idx ON orders (note)', reset: 'DROP INDEX IF EXISTS orders_note_idx' },
  {
    name: 'add-foreign-key',
    migration: 'ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id)',
    reset: 'ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_customer_fk',
  },
  {
    name: 'add-check',
    migration: 'ALTER TABLE orders ADD CONSTRAINT orders_amount_positive CHECK (amount >= 0)',
    reset: 'ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_amount_positive',
  },
  {
    name: 'set-not-null',
    migration: 'ALTER TABLE orders ALTER COLUMN amount SET NOT NULL',
    reset: 'ALTER TABLE orders ALTER COLUMN amount DROP NOT NULL; ALTER TABLE orders DROP CONSTRAINT IF EXISTS dbops_orders_amount_not_null',
  },
  {
    name: 'add-unique',
    migration: 'ALTER TABLE orders ADD CONSTRAINT orders_ref_key UNIQUE (ref)',
    reset: 'ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_ref_key; DROP INDEX IF EXISTS orders_ref_key',
  },
  {
    name: 'drop-index',
    setup: 'CREATE INDEX orders_note_drop_idx ON orders (note)',
    migration: 'DROP INDEX orders_note_drop_idx',
    reset: 'CREATE INDEX IF NOT EXISTS orders_note_drop_idx ON orders (note)',
    teardown: 'DROP INDEX IF EXISTS orders_note_drop_idx',
  },
  {
    // A third of the rows, which the UPDATE writer also changes: row locks held for the whole statement vs one batch.
    name: 'large-update',
    migration: 'UPDATE orders SET amount = amount + 1 WHERE customer_id % 3 = 0',
    reset: 'SELECT 1',
  },
  {
    // Rows the original deletes are put back before the plan runs, so both delete the same third.
    name: 'large-delete',
    setup: 'CREATE TABLE orders_deleted AS SELECT * FROM orders WHERE customer_id % 3 = 1',
    migration: 'DELETE FROM orders WHERE customer_id % 3 = 1',
    reset: 'INSERT INTO orders SELECT * FROM orders_deleted ON CONFLICT DO NOTHING',
    teardown: 'DROP TABLE orders_deleted',
  },
  {
    // The key moves to ref; id keeps a unique index, which the UPDATE writer looks rows up by.
    name: 'add-primary-key',
    setup: 'CREATE UNIQUE INDEX orders_id_key ON orders (id); ALTER TABLE orders DROP CONSTRAINT orders_pkey',
    migration: 'ALTER TABLE orders ADD PRIMARY KEY (ref)',
    reset: 'ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_pkey; DROP INDEX IF EXISTS orders_pkey',
    teardown: 'ALTER TABLE orders ADD CONSTRAINT orders_pkey PRIMARY KEY USING INDEX orders_id_key',
  },
  {
    name: 'int-to-bigint',
    migration: 'ALTER TABLE orders ALTER COLUMN id TYPE bigint',
    // Back to int (a rewrite, with no writers running); after the plan the column stays last.
    reset: 'ALTER TABLE orders ALTER COLUMN id TYPE int',
    reorders: true,
  },
  {
    // The key two tables' foreign keys reference (lines: half as many rows as orders, notes: a tenth); a third writer inserts lines.
    name: 'referenced-key-to-bigint',
    setup: `CREATE TABLE lines (id serial PRIMARY KEY, order_id int NOT NULL REFERENCES orders (id) ON DELETE CASCADE, qty int);
      CREATE INDEX lines_order ON lines (order_id);
      INSERT INTO lines (order_id, qty) SELECT 1 + (g * 7) % ${ROWS}, g % 9 FROM generate_series(1, ${Math.floor(ROWS / 2)}) g;
      CREATE TABLE order_notes (id serial PRIMARY KEY, order_id int REFERENCES orders (id), body text);
      INSERT INTO order_notes (order_id, body) SELECT 1 + (g * 13) % ${ROWS}, 'n' FROM generate_series(1, ${Math.floor(ROWS / 10)}) g;
      ANALYZE lines; ANALYZE order_notes`,
    migration: 'ALTER TABLE orders ALTER COLUMN id TYPE bigint',
    reset: 'ALTER TABLE orders ALTER COLUMN id TYPE int',
    teardown: 'DROP TABLE lines, order_notes',
    extraWrite: `INSERT INTO lines (order_id, qty) VALUES (1 + (random() * ${ROWS - 1})::int, 1)`,
    reorders: true,
  },
  {
    name: 'volatile-default',
    migration: 'ALTER TABLE orders ADD COLUMN token uuid NOT NULL DEFAULT gen_random_uuid()',
    reset: 'ALTER TABLE orders DROP COLUMN IF EXISTS token',
  },
];

interface Waits {
  /** When the worst write started (performance.now()). */
  worstAt: number;
  worst: number;
  p99: number;
  count: number;
  /** Writes that failed (a deadlock with the migration: the writer was its victim), by SQLSTATE. */
  failed: Record<string, number>;
}

/**
 * Two writers every 5 ms until stopped; each write's wall time is recorded. `stop` judges only the
 * writes that were still running once the run began (`runStart`, performance.now()): a write that
 * ended before the migration's first statement cannot have waited for it. (The first writes after
 * a CHECKPOINT on fresh connections took up to ~460 ms on a quiet machine with nothing else
 * running, which the first quiet run counted against four of five plans.)
 */
function startWriters(url: string, extraWrite?: string): { stop(runStart: number): Promise<Waits & { before: number }> } {
  let running = true;
  const writes: Array<{ at: number; took: number }> = [];
  const failed: Record<string, number> = {};
  const loop = async (kind: 'insert' | 'update' | 'extra') => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      while (running) {
        const t0 = performance.now();
        try {
          if (kind === 'extra') await c.query(extraWrite!);
          else if (kind === 'insert')
            await c.query(`INSERT INTO orders (customer_id, amount, note, ref) VALUES (1 + (random() * 9999)::int, 1, 'w', nextval('orders_ref_seq'))`);
          // The row is drawn here: random() in the WHERE clause is volatile, so PostgreSQL evaluated it
          // per row and scanned the whole table for every write (~400 ms at 2M rows), which the
          // first runs of this bench counted as waits.
          else await c.query('UPDATE orders SET amount = amount + 1 WHERE id = $1', [1 + Math.floor(Math.random() * (ROWS - 1))]);
        } catch (e) {
          // The write waited all the same; a lost write is counted, not fatal to the bench.
          const code = (e as { code?: string }).code ?? 'error';
          failed[code] = (failed[code] ?? 0) + 1;
        }
        writes.push({ at: t0, took: performance.now() - t0 });
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      await c.end();
    }
  };
  const loops = [loop('insert'), loop('update'), ...(extraWrite ? [loop('extra')] : [])];
  return {
    async stop(runStart: number) {
      running = false;
      await Promise.all(loops);
      const during = writes.filter((w) => w.at + w.took >= runStart);
      const worstWrite = during.reduce((a, b) => (b.took > a.took ? b : a), { at: 0, took: 0 });
      const sorted = during.map((w) => w.took).sort((a, b) => a - b);
      const before = writes.filter((w) => w.at + w.took < runStart).reduce((m, w) => Math.max(m, w.took), 0);
      return { worstAt: worstWrite.at, worst: worstWrite.took, p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0, count: sorted.length, failed, before };
    },
  };
}

/** Applies a script as the executor does: statements one by one on one session (BEGIN/COMMIT as written). */
async function applyScript(url: string, script: string, oneTransaction: boolean, steps: Array<{ at: number; text: string }> = []): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const t0 = performance.now();
  try {
    if (oneTransaction) await c.query('BEGIN');
    for (const s of await splitStatements(script)) {
      steps.push({ at: performance.now(), text: s.sql });
      await c.query(s.sql);
    }
    if (oneTransaction) await c.query('COMMIT');
    return performance.now() - t0;
  } finally {
    await c.end();
  }
}

/** Runs a plan through the executor's own loop (batched steps in batches, lock retries), as the service does. */
async function executePlan(url: string, script: string, serverVersionNum: number, steps: Array<{ at: number; text: string }>): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const t0 = performance.now();
  try {
    const out = await runMigration({
      client: c,
      plan: await planMigration(script, serverVersionNum),
      settings: { lockTimeoutMs: 5000, statementTimeoutMs: 3_600_000, lockRetries: 3, lockRetryBaseMs: 500, lockRetryMaxMs: 8000 },
      onProgress: async (text) => void steps.push({ at: performance.now(), text }),
    });
    if (out.status !== 'completed') throw new Error(`the plan failed: ${JSON.stringify(out.error)}`);
    return performance.now() - t0;
  } finally {
    await c.end();
  }
}

/** A pg_dump with the lines of each statement sorted: column order does not count. */
const orderFree = (dump: string): string =>
  dump
    .split(/;\n/)
    .map((stmt) =>
      stmt
        .split('\n')
        .map((l) => l.replace(/,$/, ''))
        .sort()
        .join('\n'),
    )
    .sort()
    .join(';\n');

function dumpSchema(url: string): string {
  return execFileSync(`${PG15_BIN}/pg_dump`, ['--schema-only', '--no-owner', url], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => !l.startsWith('--') && !l.startsWith('\\') && !/^SET |^SELECT pg_catalog/.test(l))
    .join('\n');
}

async function snapshotOf(url: string): Promise<SchemaSnapshot> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const content = await readTargetSchema(c);
    return { ...content, snapshot_id: 'bench', connection_id: 'bench', introspected_at: new Date().toISOString() } as SchemaSnapshot;
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  const missing = pg15Unavailable();
  if (missing) {
    console.log(`skipped: ${missing}`);
    return;
  }
  const server = await startPg15();
  const url = server.url;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    console.log(
      `# safe plans vs originals, ${ROWS.toLocaleString('en-US')} rows, batches of ${BATCHING.size} rows, pause ${BATCHING.pauseMs} ms, ${os.cpus().length} cores (${os.cpus()[0]?.model}), load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, ${new Date().toISOString()}`,
    );
    await admin.query(`CREATE TABLE customers (id int PRIMARY KEY); INSERT INTO customers SELECT generate_series(1, 10000);
      CREATE SEQUENCE orders_ref_seq START ${ROWS + 1};
      CREATE TABLE orders (id serial PRIMARY KEY, customer_id int NOT NULL, amount int, note text NOT NULL, ref bigint NOT NULL);
      INSERT INTO orders (customer_id, amount, note, ref) SELECT 1 + g % 10000, g % 1000, md5(g::text), g FROM generate_series(1, ${ROWS}) g`);
    await admin.query('VACUUM ANALYZE');
    const only = values.only ? new Set(values.only.split(',')) : null;
    console.log('pattern | run | worst write wait ms (writes running once the run began) | p99 ms | writes | total ms | same schema');
    for (const p of PATTERNS.filter((x) => !only || only.has(x.name))) {
      if (p.setup) await admin.query(p.setup);
      const snapshot = await snapshotOf(url);
      const a = await analyzeMigrationDetailed(p.migration, snapshot, { connectionId: 'bench', sandbox: false });
      const out = draftSafePlan(
        a.parsed,
        a.items.map((i) => i.facts),
        a.report.statements,
        buildSchemaIndex(snapshot),
        BATCHING,
      );
      if (!out.draft) {
        console.log(`${p.name} | plan | - | - | - | - | no plan: ${out.reason ?? 'not needed'}`);
        if (p.teardown) await admin.query(p.teardown);
        continue;
      }
      const batched = out.draft.steps.some((st) => st.batched);
      const runs: Array<[string, string, boolean]> = [
        ['original', p.migration, true],
        ['plan', out.draft.combined_script, false],
      ];
      const dumps: string[] = [];
      for (const [run, script, oneTx] of runs) {
        await admin.query('CHECKPOINT');
        const writers = startWriters(url, p.extraWrite);
        await new Promise((r) => setTimeout(r, 300));
        const steps: Array<{ at: number; text: string }> = [];
        let failure = '';
        const runStart = performance.now();
        const total = await (
          run === 'plan' && batched ? executePlan(url, script, snapshot.server_version_num, steps) : applyScript(url, script, oneTx, steps)
        ).catch((e: unknown) => {
          // The original can be a deadlock's victim too (it locks the parent, then each child, while writers of a child wait for the parent).
          failure = ` (the ${run} failed: ${e instanceof Error ? e.message : String(e)})`;
          return NaN;
        });
        await new Promise((r) => setTimeout(r, 300));
        const w = await writers.stop(runStart);
        dumps.push(dumpSchema(url));
        if (run === 'plan' && dumps[0] !== dumps[1] && process.env.BENCH_DIFF) {
          const a = new Set(dumps[0]!.split('\n'));
          const b = new Set(dumps[1]!.split('\n'));
          console.log(
            [...a]
              .filter((l) => !b.has(l))
              .map((l) => `- ${l}`)
              .concat([...b].filter((l) => !a.has(l)).map((l) => `+ ${l}`))
              .join('\n'),
          );
        }
        const same = p.reorders ? `${orderFree(dumps[0]!) === orderFree(dumps[1] ?? '')} (modulo column order)` : String(dumps[0] === dumps[1]);
        const lost = Object.entries(w.failed).map(([code, n]) => `${n} write(s) failed with ${code}`);
        console.log(
          `${p.name} | ${run} | ${w.worst.toFixed(0)} | ${w.p99.toFixed(1)} | ${w.count} | ${total.toFixed(0)} | ${run === 'plan' ? same : ''}${failure}${lost.length ? ` | ${lost.join(', ')}` : ''}`,
        );
        // Where the worst write began: the executor's step (or batch) in progress then.
        const during = steps.filter((st) => st.at <= w.worstAt).at(-1);
        if (during) console.log(`  worst write began during: ${during.text.slice(0, 140)}`);
        if (w.before > w.worst) console.log(`  (worst write before the run began, not counted: ${w.before.toFixed(0)} ms)`);
        await admin.query(p.reset);
      }
      if (p.teardown) await admin.query(p.teardown);
    }
  } finally {
    await admin.end();
    await server.stop();
  }
}

await main();
