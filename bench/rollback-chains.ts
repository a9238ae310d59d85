/**
 * Do the rollback plans of real migrations give the schema back? PostgreSQL judges (issue #36).
 * For each chain (bench/support/migration-chains.ts, read from git mirrors of the public projects
 * when the bench runs) the chain is applied on a private PostgreSQL of the chosen major except its
 * last N migrations. For each of those:
 *   1. the live schema is introspected and the migration analyzed through the service's HTTP API
 *      (local runtime, sandbox engine `auto`, the rollback proof included as in every analysis);
 *   2. `CREATE DATABASE copy TEMPLATE db` takes the database as it is before the migration;
 *   3. the migration is applied on the real database, as the project's tool applies it;
 *   4. on the copy: the migration, then the report's `rollback_plan.combined_script` with psql
 *      (ON_ERROR_STOP), and `pg_dump --schema-only` of the copy is compared with the dump of the
 *      database before the migration.
 * Counted per chain: migrations PostgreSQL applied, tokens, rejected by PostgreSQL / refused by
 * us, rollbacks the report calls reversible (`has_irreversible: false`), round trips pg_dump
 * confirms, `verified` agreeing with pg_dump, false "reversible", and for migrations with an
 * exact inverse (see `exactInverse` below) the share rolled back exactly. Every disagreement is
 * listed with the migration and a one-line reason.
 *
 *   npx tsx bench/rollback-chains.ts [--only hatchet,lemmy] [--last 80] [--major 15] [--warm 15] [--verbose] [--apply-only]
 *
 * `--apply-only` applies the whole chain on PostgreSQL and prints what it rejected and the size
 * of the schema, without analysing anything (to check a chain's mechanics without looking at its
 * results). Needs Debian's postgresql-15 client (psql, pg_dump) beside the npm server binaries.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmbeddedServer } from '../packages/core/src/analysis/sandbox/embedded/embedded-server';
import { findPgBinaries } from '../packages/core/src/analysis/sandbox/embedded/pg-binaries';
import { ensureParser, parseTreeSync } from '../packages/core/src/pg/parser';
import { analyzeMigration } from '../packages/core/src/analysis/analyze-migration';
import { registerConnection } from '../test/support/connections';
import { snapshotOf } from '../test/support/schema-fidelity';
import { firstDifferences, PG15_BIN, pg15Unavailable, schemaDump } from '../test/support/pg15-server';
import { startTestRuntime } from '../test/support/test-runtime';
import { applyScript, CHAINS, type ChainScript, exec, openChainDatabase, psql, withDb } from './support/migration-chains';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    last: { type: 'string' },
    major: { type: 'string' },
    warm: { type: 'string' },
    verbose: { type: 'boolean' },
    'apply-only': { type: 'boolean' },
  },
});
const LAST = Number(values.last ?? 80);
const MAJOR = Number(values.major ?? 15);
const WARM_RUNS = Number(values.warm ?? 15);

const p50 = (xs: number[]): number => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : NaN);
const oneLine = (s: unknown, max = 200): string => {
  const t = String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/** Statement kinds whose effect on the schema PostgreSQL can undo exactly (nothing lost, nothing moved). */
const EXACT = new Set([
  'CreateStmt',
  'IndexStmt',
  'ViewStmt',
  'CreateFunctionStmt',
  'CreateTrigStmt',
  'CompositeTypeStmt',
  'CreateEnumStmt',
  'CreateDomainStmt',
  'CreateSeqStmt',
  'CreateSchemaStmt',
  'CreatePolicyStmt',
  'RuleStmt',
  'CreateExtensionStmt',
  'CreateTableAsStmt',
  'CommentStmt',
  'RenameStmt',
  'AlterSeqStmt',
  'AlterFunctionStmt',
  'AlterObjectSchemaStmt',
  'AlterDomainStmt',
  // Nothing the schema dump shows (owners and grants are left out of the dumps compared).
  'VariableSetStmt',
  'TransactionStmt',
  'LockStmt',
  'GrantStmt',
  'GrantRoleStmt',
  'AlterDefaultPrivilegesStmt',
  'AlterOwnerStmt',
  'CreateRoleStmt',
  'AlterRoleStmt',
  'VacuumStmt',
  'RefreshMatViewStmt',
]);
/** Objects whose DROP loses nothing the catalog cannot rebuild (no rows, no sequence position). */
const DROP_EXACT = new Set([
  'OBJECT_INDEX',
  'OBJECT_VIEW',
  'OBJECT_FUNCTION',
  'OBJECT_PROCEDURE',
  'OBJECT_ROUTINE',
  'OBJECT_TRIGGER',
  'OBJECT_TYPE',
  'OBJECT_DOMAIN',
  'OBJECT_POLICY',
  'OBJECT_RULE',
  'OBJECT_AGGREGATE',
]);

type Node = Record<string, unknown>;
const relName = (rv: unknown): string | undefined => ((rv as Node | undefined)?.relname as string | undefined)?.toLowerCase();

/**
 * Whether a migration has an exact inverse, judged from its statement kinds alone, apart from
 * anything the rollback generator knows: every statement creates, alters or drops something the
 * catalog can give back as it was. Not exact: DROP TABLE / materialized view / sequence / schema /
 * extension (rows or positions are lost), DROP COLUMN (a column put back goes last),
 * ALTER TYPE ... ADD VALUE (an enum value cannot be removed), DML, TRUNCATE, DO, SELECT and CALL
 * (rows or effects no catalog holds), except INSERT/UPDATE/DELETE on a table the migration
 * itself creates. A migration that does not parse is not counted as exact.
 */
function exactInverse(sql: string): boolean {
  let stmts: Array<{ stmt?: Node }>;
  try {
    stmts = (parseTreeSync(sql).stmts ?? []) as Array<{ stmt?: Node }>;
  } catch {
    return false;
  }
  const created = new Set<string>();
  for (const { stmt } of stmts) {
    if (!stmt) continue;
    const [kind, body] = Object.entries(stmt)[0] as [string, Node];
    if (kind === 'CreateStmt') {
      const name = relName(body.relation);
      if (name) created.add(name);
    }
    if (EXACT.has(kind)) continue;
    if (kind === 'AlterTableStmt') {
      const cmds = (body.cmds as Array<{ AlterTableCmd?: Node }> | undefined) ?? [];
      if (cmds.some((c) => c.AlterTableCmd?.subtype === 'AT_DropColumn')) return false;
      continue;
    }
    if (kind === 'AlterEnumStmt') {
      if (!body.oldVal) return false; // ADD VALUE
      continue;
    }
    if (kind === 'DropStmt') {
      if (!DROP_EXACT.has(String(body.removeType))) return false;
      continue;
    }
    if (kind === 'InsertStmt' || kind === 'UpdateStmt' || kind === 'DeleteStmt') {
      const name = relName(body.relation);
      if (name && created.has(name)) continue;
      return false;
    }
    return false;
  }
  return true;
}

interface Tally {
  analysed: number;
  applied: number;
  tokens: number;
  rejected: number;
  rejectedRefused: number;
  claimedReversible: number;
  confirmed: number;
  falseReversible: number;
  proved: number;
  verifiedAgrees: number;
  verifiedNull: number;
  pgEqual: number;
  exact: number;
  exactEqual: number;
  noPlan: number;
}
const emptyTally = (): Tally => ({
  analysed: 0,
  applied: 0,
  tokens: 0,
  rejected: 0,
  rejectedRefused: 0,
  claimedReversible: 0,
  confirmed: 0,
  falseReversible: 0,
  proved: 0,
  verifiedAgrees: 0,
  verifiedNull: 0,
  pgEqual: 0,
  exact: 0,
  exactEqual: 0,
  noPlan: 0,
});

/** Size of the schema: what "a 170-table schema" means, counted on the catalog. */
async function schemaSize(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<Record<string, string>>(`
      WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND nspname NOT LIKE 'pg_temp%' AND nspname NOT LIKE 'pg_toast_temp%')
      SELECT
        (SELECT count(*) FROM pg_class WHERE relnamespace IN (SELECT oid FROM ns) AND relkind IN ('r', 'p') AND NOT relispartition) AS tables,
        (SELECT count(*) FROM pg_class WHERE relnamespace IN (SELECT oid FROM ns) AND relkind = 'p') AS partitioned,
        (SELECT count(*) FROM pg_class WHERE relnamespace IN (SELECT oid FROM ns) AND relkind IN ('r', 'p') AND relispartition) AS partitions,
        (SELECT count(*) FROM pg_class WHERE relnamespace IN (SELECT oid FROM ns) AND relkind IN ('i', 'I')) AS indexes,
        (SELECT count(*) FROM pg_proc p WHERE pronamespace IN (SELECT oid FROM ns) AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')) AS functions,
        (SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND c.relnamespace IN (SELECT oid FROM ns) AND t.tgparentid = 0) AS triggers`);
    const r = rows[0]!;
    return `${r.tables} tables (${r.partitioned} partitioned, with ${r.partitions} partitions besides), ${r.indexes} indexes, ${r.functions} functions, ${r.triggers} triggers`;
  } finally {
    await c.end();
  }
}

/** `CREATE DATABASE copy TEMPLATE db`; sessions still on db (none expected) are ended first if it is busy. */
async function copyDatabase(adminUrl: string, db: string, copy: string): Promise<void> {
  await exec(adminUrl, `DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
  let error = await exec(adminUrl, `CREATE DATABASE ${copy} TEMPLATE ${db}`);
  if (error?.includes('is being accessed')) {
    await exec(adminUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db}' AND pid <> pg_backend_pid()`);
    error = await exec(adminUrl, `CREATE DATABASE ${copy} TEMPLATE ${db}`);
  }
  if (error) throw new Error(`copy of ${db}: ${error}`);
}

const unavailable = pg15Unavailable();
const bin = findPgBinaries(MAJOR);
if (unavailable || !bin) {
  console.log(`rollback chain bench skipped: ${unavailable ?? `no PostgreSQL ${MAJOR} binaries`}`);
  process.exit(0);
}
await ensureParser();
const target = await startEmbeddedServer(bin);
const t = values['apply-only'] ? null : await startTestRuntime({ env: { DBOPS_SANDBOX_ENGINE: 'auto' } });
const load = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(
  `Rollback chains: target PostgreSQL ${bin.version} (${bin.source}); pg_dump/psql ${PG15_BIN}; ${os.cpus().length} cores, Node ${process.version}; load ${load()}; ${new Date().toISOString()}`,
);
const rows: string[] = [];
try {
  for (const chain of CHAINS) {
    if (values.only && !values.only.split(',').includes(chain.name)) continue;
    const db = `rb_${chain.name}`;
    const copy = `${db}_copy`;
    const opened = await openChainDatabase(chain, target.adminUrl(), db);
    if (!opened) continue;
    const { git, ref, commit, url, scripts } = opened;
    const copyUrl = withDb(target.adminUrl(), copy);
    const skipped = chain.skipped?.(git, ref) ?? [];
    const window = values['apply-only'] ? scripts.length : Math.min(LAST, scripts.length);
    const head = scripts.slice(0, scripts.length - window);
    const rejectedEarly: string[] = [];
    for (const s of head) {
      const e = await applyScript(url, s);
      if (e) rejectedEarly.push(`${s.label}: ${e}`);
    }
    console.log(
      `### ${chain.name} (${chain.repo} @ ${commit}): ${scripts.length} migrations${skipped.length ? ` (and ${skipped.length} in another language, not run: ${skipped.join(', ')})` : ''}; first ${head.length} applied directly (${rejectedEarly.length} rejected), last ${window} ${values['apply-only'] ? 'applied' : 'analyzed'}; load ${load()}`,
    );
    if (!t) {
      const rejected: string[] = [];
      for (const s of scripts) {
        const e = await applyScript(url, s);
        if (e) rejected.push(`${s.label}: ${e}`);
      }
      console.log(`applied by PostgreSQL ${bin.major}: ${scripts.length - rejected.length} of ${scripts.length}; schema: ${await schemaSize(url)}`);
      for (const r of rejected) console.log(`  rejected: ${oneLine(r)}`);
      continue;
    }
    const user = `rollback-${chain.name}`;
    const connection = await registerConnection(t, user, url, { name: chain.name });
    const apiKey = await t.apiKey(user);
    const tally = emptyTally();
    const notes: string[] = [];
    const durations: number[] = [];
    let before = await schemaDump(url);
    for (const s of scripts.slice(head.length) as ChainScript[]) {
      tally.analysed++;
      const intro = await t.request('POST', `/connections/${connection.id}/introspect`, { apiKey });
      if (intro.status >= 300) throw new Error(`introspect failed: ${intro.status} ${intro.text}`);
      const t0 = performance.now();
      const res = await t.request('POST', `/connections/${connection.id}/migrations/analyze`, { apiKey, body: { sql: s.sql } });
      durations.push(performance.now() - t0);
      const report = res.status === 200 ? res.body : null;
      const token = typeof report?.approval_token === 'string';
      const plan = report?.rollback_plan as { combined_script: string; has_irreversible: boolean; verified: boolean | null; verification: string } | undefined;
      const why = report
        ? (report.sandbox_result?.migration_error ??
          report.sandbox_result?.validation_results?.find((v: { passed: boolean; check: string }) => !v.passed && v.check !== 'rollback_round_trip')?.detail)
        : `${res.status} ${res.text.slice(0, 200)}`;
      await copyDatabase(target.adminUrl(), db, copy);
      const applyError = await applyScript(url, s);
      if (applyError) {
        tally.rejected++;
        if (!token) tally.rejectedRefused++;
        else notes.push(`${s.label}: rejected by PostgreSQL (${oneLine(applyError, 120)}), yet got a token`);
        if (values.verbose)
          console.log(`  ${s.label}: rejected by PostgreSQL: ${oneLine(applyError, 120)}; ${token ? 'TOKEN' : `refused: ${oneLine(why, 120)}`}`);
        await exec(target.adminUrl(), `DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
        // A migration run statement by statement may have left part of itself behind.
        if (s.statements) before = await schemaDump(url);
        continue;
      }
      tally.applied++;
      if (token) tally.tokens++;
      else notes.push(`${s.label}: applied by PostgreSQL, refused by us: ${oneLine(why)}`);
      const exact = exactInverse(s.sql);
      if (exact) tally.exact++;
      if (!plan) {
        tally.noPlan++;
        notes.push(`${s.label}: no rollback plan (${res.status})`);
        await exec(target.adminUrl(), `DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
        before = await schemaDump(url);
        continue;
      }
      // The round trip on the copy: the migration as the tool runs it, then the report's rollback script.
      const copyError = await applyScript(copyUrl, s);
      const rollbackError = copyError ? null : await psql(PG15_BIN, copyUrl, plan.combined_script);
      const after = copyError || rollbackError ? null : await schemaDump(copyUrl);
      await exec(target.adminUrl(), `DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
      const equal = after !== null && after === before;
      const pgReason = copyError
        ? `the migration failed on the copy: ${copyError}`
        : rollbackError
          ? `the rollback script failed: ${rollbackError}`
          : equal
            ? 'schema dumps equal'
            : `dumps differ: ${firstDifferences(before, after!, 2).join(' | ')}`;
      if (equal) tally.pgEqual++;
      if (exact && equal) tally.exactEqual++;
      if (exact && !equal) notes.push(`${s.label}: has an exact inverse, not rolled back exactly (${oneLine(pgReason)})`);
      if (!plan.has_irreversible) {
        tally.claimedReversible++;
        if (equal) tally.confirmed++;
        else {
          tally.falseReversible++;
          notes.push(`${s.label}: FALSE "reversible": ${oneLine(pgReason)}`);
        }
      }
      if (plan.verified === null) {
        tally.verifiedNull++;
        notes.push(`${s.label}: verified null (${oneLine(plan.verification, 140)}); pg_dump: ${equal ? 'equal' : oneLine(pgReason, 140)}`);
      } else {
        tally.proved++;
        if (plan.verified === equal) tally.verifiedAgrees++;
        else
          notes.push(`${s.label}: verified ${plan.verified}, pg_dump says ${equal ? 'equal' : 'not equal'}: ${oneLine(equal ? plan.verification : pgReason)}`);
      }
      if (values.verbose)
        console.log(
          `  ${s.label}: token ${token}, has_irreversible ${plan.has_irreversible}, verified ${plan.verified}, pg_dump ${equal ? 'equal' : oneLine(pgReason, 160)}${exact ? ', exact inverse' : ''}`,
        );
      before = await schemaDump(url);
    }
    const pct = (a: number, b: number): string => (b ? `${a}/${b} (${Math.round((100 * a) / b)} %)` : '-');
    if (durations.length)
      console.log(
        `analysis per migration (introspected just before, rollback proof included): p50 ${p50(durations).toFixed(0)} ms, max ${Math.max(...durations).toFixed(0)} ms`,
      );
    console.log(`schema at the end: ${await schemaSize(url)}`);
    if (tally.analysed) {
      const row = `| ${chain.name} (${chain.repo} @ ${commit}) | ${tally.analysed} | ${tally.applied} | ${tally.tokens} | ${tally.rejected} / ${tally.rejectedRefused} | ${tally.claimedReversible} | ${tally.confirmed} | ${tally.verifiedAgrees}/${tally.proved}${tally.verifiedNull ? ` (${tally.verifiedNull} null)` : ''} | **${tally.falseReversible}** | ${pct(tally.exactEqual, tally.exact)} | ${tally.pgEqual}/${tally.applied - tally.noPlan} |`;
      rows.push(row);
      console.log(row);
      for (const n of notes) console.log(`  ${n}`);
    }
    // Warm: the same snapshot, a small migration again and again (clone cached), proof included.
    await t.request('POST', `/connections/${connection.id}/introspect`, { apiKey });
    const warm: number[] = [];
    let verified = 0;
    for (let i = 0; i <= WARM_RUNS; i++) {
      const t0 = performance.now();
      const res = await t.request('POST', `/connections/${connection.id}/migrations/analyze`, { apiKey, body: { sql: chain.probe } });
      if (i > 0) warm.push(performance.now() - t0);
      if (res.body?.rollback_plan?.verified === true) verified++;
    }
    console.log(
      `warm analysis of "${chain.probe}" on the full schema, rollback proof included: p50 ${p50(warm).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms over ${WARM_RUNS} runs (rollback verified in ${verified} of ${WARM_RUNS + 1}); load ${load()}`,
    );
    // What the proof itself costs: the analysis library on the same snapshot and engine, with and
    // without it, interleaved (no HTTP, no live checks on the target).
    const snapshot = await snapshotOf(url);
    const on: number[] = [];
    const off: number[] = [];
    for (let i = 0; i <= WARM_RUNS; i++)
      for (const proof of [true, false]) {
        const t0 = performance.now();
        await analyzeMigration(chain.probe, snapshot, { connectionId: 'bench', sandbox: { engine: 'auto' }, rollbackProof: proof });
        if (i > 0) (proof ? on : off).push(performance.now() - t0);
      }
    console.log(
      `  library, same snapshot, interleaved: with the proof p50 ${p50(on).toFixed(0)} ms, without ${p50(off).toFixed(0)} ms (the proof: +${(p50(on) - p50(off)).toFixed(0)} ms); load ${load()}`,
    );
  }
  if (rows.length) {
    console.log(
      '\n| chain | analyzed | applied by PostgreSQL | got a token | rejected by PostgreSQL / refused by us | claimed reversible | of those, confirmed by pg_dump | `verified` agrees with pg_dump | false "reversible" | exact inverse: rolled back exactly | all round trips equal |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
  }
  console.log(`load at the end: ${load()}; ${new Date().toISOString()}`);
} finally {
  await t?.close();
  await target.stop();
}
// The library calls above leave the embedded sandbox server warm, with sessions of spare run
// identities open for the next analysis (as a service wants them; they stop after 10 idle
// minutes): their sockets would hold this process that long.
process.exit(process.exitCode ?? 0);
