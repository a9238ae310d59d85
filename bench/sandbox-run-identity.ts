/**
 * What a run's own identity costs on the embedded sandbox engine (issue #35): a run database
 * copied from a clone template as before (`CREATE DATABASE ... TEMPLATE`), against the same copy
 * plus the run's role, its limits, the CONNECT revoke and `REASSIGN OWNED` of the clone's objects
 * (`createRunIdentity`), on templates of 20 and 200 tables (a table, its primary key, an index,
 * a foreign key and a row each). Alternated, so machine load hits both alike; p50 and min.
 *
 *   npx tsx bench/sandbox-run-identity.ts        (BENCH_RUNS, default 9)
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { startEmbeddedServer } from '../packages/core/src/analysis/sandbox/embedded/embedded-server';
import { findPgBinaries } from '../packages/core/src/analysis/sandbox/embedded/pg-binaries';
import { createRunIdentity, dropRunIdentity, HAND_TEMPLATE_TO_CLONE_OWNER } from '../packages/core/src/analysis/sandbox/embedded/run-role';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const bin = findPgBinaries(17);
if (!bin) throw new Error('no PostgreSQL 17 binaries');
const server = await startEmbeddedServer(bin);

async function on(url: string, sql: string): Promise<void> {
  const c = new pg.Client(url);
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}
const connect = async (database?: string) => {
  const c = new pg.Client(server.adminUrl(database));
  await c.connect();
  return c;
};
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(
  `PostgreSQL ${bin.version}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${new Date().toISOString()}`,
);
for (const tables of [20, 200]) {
  const template = `bench_tpl_${tables}`;
  await on(server.adminUrl(), `CREATE DATABASE ${template} TEMPLATE template0`);
  let ddl = '';
  for (let i = 0; i < tables; i++)
    ddl += `CREATE TABLE t${i} (id bigint PRIMARY KEY, a text, b bigint REFERENCES t${Math.max(0, i - 1)}(id)); CREATE INDEX ON t${i}(a); INSERT INTO t${i} VALUES (1, 'x', ${i ? 1 : 'NULL'});`;
  await on(server.builderUrl(template), ddl);
  await on(server.builderUrl(template), HAND_TEMPLATE_TO_CLONE_OWNER);
  await on(server.adminUrl(), `ALTER DATABASE ${template} WITH ALLOW_CONNECTIONS false`);
  const copy: number[] = [];
  const identity: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    let t0 = performance.now();
    await on(server.adminUrl(), `CREATE DATABASE bench_copy TEMPLATE ${template}`);
    copy.push(performance.now() - t0);
    await on(server.adminUrl(), 'DROP DATABASE bench_copy');
    t0 = performance.now();
    const run = await createRunIdentity(connect, template);
    identity.push(performance.now() - t0);
    await dropRunIdentity(connect, run);
  }
  console.log(
    `${tables} tables: database copy p50 ${p50(copy).toFixed(0)} ms (min ${Math.min(...copy).toFixed(0)}), ` +
      `copy + run role + REASSIGN OWNED p50 ${p50(identity).toFixed(0)} ms (min ${Math.min(...identity).toFixed(0)}), ` +
      `load average now ${loadavg()[0]!.toFixed(1)}`,
  );
}
await server.stop();
