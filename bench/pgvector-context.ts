/**
 * The context query's top 10 over 1M chunks on a real PostgreSQL with pgvector (issue #21): the
 * cloud's state store (RDS with pgvector, HNSW m = 8 as migration 0402 builds it), here a
 * throwaway PostgreSQL 15 cluster with pgvector built from source.
 *
 * Debian bookworm ships no pgvector package, so the pieces are built for the bench only, never
 * in the repository:
 *   apt-get install postgresql-15 postgresql-server-dev-15
 *   git -C /work/.mirror/pgvector+pgvector/repo archive HEAD | tar -x -C /tmp/pgvector
 *   mkdir -p /tmp/pgv/usr/lib/postgresql /tmp/pgv/usr/share/postgresql
 *   cp -a /usr/lib/postgresql/15 /tmp/pgv/usr/lib/postgresql/ && cp -a /usr/share/postgresql/15 /tmp/pgv/usr/share/postgresql/
 *   make -C /tmp/pgvector && make -C /tmp/pgvector install DESTDIR=/tmp/pgv
 * (a copy of the server finds its share directory relative to its binaries, so the system's
 * PostgreSQL is left as it was), then:
 *   PGVECTOR_PG_BIN=/tmp/pgv/usr/lib/postgresql/15/bin npx tsx bench/pgvector-context.ts
 * Env: CHUNKS (default 1000000), QUERIES (default 30), RECALL_QUERIES (default 10).
 *
 * The service's own migrations make the schema; chunks (generated business prose, about 1,000
 * characters, hashing-embedded) are loaded without the HNSW index, which is then built as 0402
 * defines it (the way a bulk import would), and `findRelevantDocumentChunks` is timed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { freePort } from '@dbops/local/free-port';
import { ensureUser } from '../packages/core/src/accounts/users';
import { findRelevantDocumentChunks } from '../packages/core/src/context/document-context';
import { identifierTokens } from '../packages/core/src/documents/identifiers';
import { HashingEmbedder } from '../packages/core/src/embeddings/hashing-embedder';
import { migrate } from '../packages/core/src/store/migrate';
import { serviceMigrations } from '../packages/core/src/store/migrations/index';
import { PgStore } from '../packages/core/src/store/pg-store';
import { vectorParam } from '../packages/core/src/store/vector-param';
import { paragraph, reseed, TABLES } from './document-corpus';

const BIN = process.env.PGVECTOR_PG_BIN ?? '';
const CHUNKS = Number(process.env.CHUNKS ?? 1_000_000);
const QUERIES = Number(process.env.QUERIES ?? 30);
const RECALL_QUERIES = Number(process.env.RECALL_QUERIES ?? 10);
const PER_DOCUMENT = 10_000;
const ROWS_PER_INSERT = 500;

const loads = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (m: string): void => void process.stderr.write(`[${new Date().toISOString()}] ${m} (load ${loads()})\n`);

function missing(): string | null {
  if (!BIN) return 'PGVECTOR_PG_BIN is not set (see the header of this file for the build steps)';
  for (const b of ['initdb', 'pg_ctl', 'postgres']) if (!existsSync(path.join(BIN, b))) return `${path.join(BIN, b)} not found`;
  const control = path.resolve(BIN, '../../../../share/postgresql/15/extension/vector.control');
  if (!existsSync(control)) return `${control} not found: pgvector is not built into this server copy`;
  return null;
}

const asPg = (args: string[]): [string, string[]] => (process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0]!, args.slice(1)]);

const why = missing();
if (why) {
  console.log(`pgvector bench not run: ${why}`);
  process.exit(0);
}

console.log(
  `machine: ${cpus()[0]?.model} x ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load ${loads()}; ${new Date().toISOString()}`,
);
const dir = await mkdtemp(path.join(tmpdir(), 'dbops-pgvector-'));
await chmod(dir, 0o777);
const data = path.join(dir, 'data');
const port = await freePort();
execFileSync(...asPg([`${BIN}/initdb`, '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']), { stdio: 'ignore' });
const settings =
  '-c fsync=off -c shared_buffers=2GB -c maintenance_work_mem=3GB -c max_parallel_maintenance_workers=1 -c max_wal_size=8GB -c checkpoint_timeout=30min';
execFileSync(
  ...asPg([
    `${BIN}/pg_ctl`,
    '-D',
    data,
    '-w',
    '-t',
    '120',
    '-l',
    path.join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${settings}`,
    'start',
  ]),
  { stdio: 'ignore' },
);
const store = new PgStore({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`, max: 4 });
try {
  await migrate(store, serviceMigrations);
  const version = (await store.query<{ v: string }>(`SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'`)).rows[0]?.v;
  const server = (await store.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v;
  console.log(`PostgreSQL ${server}, pgvector ${version}; ${CHUNKS} chunks in one connection, ${PER_DOCUMENT} per document`);
  const indexDef = (await store.query<{ d: string }>(`SELECT indexdef AS d FROM pg_indexes WHERE indexname = 'document_chunks_embedding'`)).rows[0]?.d;
  if (!indexDef) throw new Error('the service schema has no document_chunks_embedding index on this store');
  await store.query('DROP INDEX document_chunks_embedding');

  const userId = await ensureUser(store, 'bench', 'pgvector');
  const connectionId = randomUUID();
  const embedder = new HashingEmbedder();
  reseed();
  let t0 = performance.now();
  for (let doc = 0; doc * PER_DOCUMENT < CHUNKS; doc++) {
    const documentId = randomUUID();
    const n = Math.min(PER_DOCUMENT, CHUNKS - doc * PER_DOCUMENT);
    await store.query(
      `INSERT INTO documents (id, user_id, connection_id, filename, content_type, size_bytes, sha256, chunk_count, generation) VALUES ($1, $2, $3, $4, 'text/plain', 1, 'x', $5, $1)`,
      [documentId, userId, connectionId, `doc-${doc}.txt`, n],
    );
    for (let start = 0; start < n; start += ROWS_PER_INSERT) {
      const texts = Array.from({ length: Math.min(ROWS_PER_INSERT, n - start) }, () => `${paragraph()} ${paragraph()}`.slice(0, 1000));
      const vectors = await embedder.embed(texts);
      const params: unknown[] = [documentId, userId, connectionId, embedder.model, embedder.dimension];
      const rows = texts.map((text, i) => {
        const p = params.length;
        params.push(start + i, text, identifierTokens(text), vectorParam(vectors[i]!));
        return `($1, $2, $3, $${p + 1}, NULL, $${p + 2}, $${p + 3}::text[], $${p + 4}::vector, $4, $5)`;
      });
      await store.query(
        `INSERT INTO document_chunks (document_id, user_id, connection_id, chunk_index, heading, content, identifiers, embedding, embedding_model, embedding_dimension)
         VALUES ${rows.join(', ')}`,
        params,
      );
    }
    if (doc % 10 === 9) log(`${(doc + 1) * PER_DOCUMENT} chunks loaded`);
  }
  const loadS = (performance.now() - t0) / 1000;
  log('building the HNSW index');
  t0 = performance.now();
  await store.transaction(async (tx) => {
    await tx.query(`SET LOCAL maintenance_work_mem = '3GB'`);
    await tx.query(indexDef);
  });
  const buildS = (performance.now() - t0) / 1000;
  await store.query('ANALYZE document_chunks');
  const size = (
    await store.query<{ t: string; i: string }>(
      `SELECT pg_size_pretty(pg_table_size('document_chunks')) AS t, pg_size_pretty(pg_relation_size('document_chunks_embedding')) AS i`,
    )
  ).rows[0]!;
  console.log(
    `load ${loadS.toFixed(0)} s (generate, embed, insert); HNSW build ${buildS.toFixed(0)} s (${indexDef.replace(/^.*USING /, 'USING ')}); table ${size.t}, index ${size.i}`,
  );

  reseed(7);
  const questions = Array.from({ length: QUERIES }, () => paragraph().slice(0, 200));
  const timed = async (tables: string[]): Promise<number[]> => {
    const ms: number[] = [];
    for (const q of questions) {
      const s = performance.now();
      await findRelevantDocumentChunks(store, embedder, { userId, connectionId, query: q, tableNames: tables, limit: 10 });
      ms.push(performance.now() - s);
    }
    return ms.sort((a, b) => a - b);
  };
  const pct = (ms: number[], p: number): string => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(1);
  await timed([]); // warm the cache: the figures are for a server whose index is in memory
  const queryOnly = await timed([]);
  const withTable = await timed([TABLES[0]!]);
  console.log(`| top 10, query text only | p50 ${pct(queryOnly, 0.5)} ms | p95 ${pct(queryOnly, 0.95)} ms | ${QUERIES} queries |`);
  console.log(`| top 10, with one table name | p50 ${pct(withTable, 0.5)} ms | p95 ${pct(withTable, 0.95)} ms | ${QUERIES} queries |`);

  // Recall: the HNSW candidates (ef_search 400) against an exact scan, for the 10 nearest.
  let found = 0;
  let exactMs = 0;
  for (const q of questions.slice(0, RECALL_QUERIES)) {
    const [v] = await embedder.embed([q]);
    const p = vectorParam(v!);
    const nearest = async (exact: boolean): Promise<string[]> =>
      store.transaction(async (tx) => {
        await tx.query(`SELECT set_config('hnsw.ef_search', '400', true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
        if (exact) await tx.query(`SELECT set_config('enable_indexscan', 'off', true)`);
        const r = await tx.query<{ id: string }>(
          'SELECT id FROM document_chunks WHERE user_id = $1 AND connection_id = $2 ORDER BY embedding <=> $3::vector LIMIT 10',
          [userId, connectionId, p],
        );
        return r.rows.map((row) => String(row.id));
      });
    const approx = new Set(await nearest(false));
    const s = performance.now();
    const exact = await nearest(true);
    exactMs += performance.now() - s;
    found += exact.filter((id) => approx.has(id)).length;
  }
  console.log(
    `recall of the exact top 10 by the HNSW scan (ef_search 400): ${((100 * found) / (10 * RECALL_QUERIES)).toFixed(0)} % over ${RECALL_QUERIES} queries; exact scan ${(exactMs / RECALL_QUERIES).toFixed(0)} ms per query`,
  );
  console.log(`load after: ${loads()}`);
} finally {
  await store.close();
  execFileSync(...asPg([`${BIN}/pg_ctl`, '-D', data, '-m', 'fast', 'stop']), { stdio: 'ignore' });
  await rm(dir, { recursive: true, force: true });
}
