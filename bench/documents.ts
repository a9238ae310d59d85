/**
 * Documents: index a 10 MB PDF and a batch of 50 Markdown files, and the top-10 similarity
 * query over 100,000 chunks of one connection. Engine-level (no HTTP): the same functions the
 * upload and context-query handlers call, on the embedded PGlite state store with pgvector.
 *
 *   npx tsx bench/documents.ts [--chunks 100000] [--queries 200]
 *
 * Figures: PDF extraction, chunking, embedding and the one-transaction store of the batch
 * (with the HNSW index maintained on insert), each timed; the 50-file batch end to end; the
 * HNSW build over the 100,000 chunks; and findRelevantDocumentChunks (limit 10, with table
 * names, which adds the mention candidates) p50/p95 over distinct queries.
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { findRelevantDocumentChunks } from '../packages/core/src/context/document-context';
import { embedDocument, saveDocuments } from '../packages/core/src/documents/document-store';
import { ingestDocuments } from '../packages/core/src/documents/ingest-documents';
import { MAX_FILE_BYTES } from '../packages/core/src/documents/limits';
import { prepareDocument } from '../packages/core/src/documents/prepare-document';
import { HashingEmbedder } from '../packages/core/src/embeddings/hashing-embedder';
import { migrate } from '../packages/core/src/store/migrate';
import { serviceMigrations } from '../packages/core/src/store/migrations/index';
import { PgliteStore } from '../packages/core/src/store/pglite-store';
import { systemClock } from '../packages/core/src/util/clock';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    /** `all`; `ingest` (PDF and Markdown only); `query` (corpus and queries only). */
    phase: { type: 'string', default: 'all' },
    /** `text`: embed generated paragraphs (slow under load); `sql`: random unit vectors generated inside PostgreSQL. */
    corpus: { type: 'string', default: 'text' },
  },
});
const PHASE = values.phase;
const CHUNKS = Number(values.chunks);
const QUERIES = Number(values.queries);

let seed = 42;
const rand = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const WORDS = (
  'order customer invoice payment refund shipment warehouse ledger account balance revenue audit policy approval ' +
  'discount subscription renewal churn cohort region product catalog inventory supplier contract tax report month ' +
  'quarter close export import reconcile batch nightly job retention privacy consent email address phone status'
).split(' ');
const TABLES = ['orders', 'customers', 'invoices', 'payments', 'refunds', 'shipments', 'ledger_entries', 'products', 'suppliers', 'subscriptions'];
const sentence = (): string => {
  const n = 8 + Math.floor(rand() * 10);
  const words = Array.from({ length: n }, () => (rand() < 0.06 ? TABLES[Math.floor(rand() * TABLES.length)]! : WORDS[Math.floor(rand() * WORDS.length)]!));
  return `${words.join(' ')}.`;
};
const paragraph = (): string => Array.from({ length: 3 + Math.floor(rand() * 4) }, sentence).join(' ');

const ms = (t0: number): number => performance.now() - t0;
/** Process CPU time in ms: PGlite runs in this process, so this covers the database work too. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function pdfOfPages(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage();
    let y = 780;
    while (y > 40) {
      const text = paragraph();
      // ~95 characters per line, a gap between paragraphs.
      for (let i = 0; i < text.length && y > 40; i += 95) {
        page.drawText(text.slice(i, i + 95), { x: 40, y, size: 9, font });
        y -= 11;
      }
      y -= 8;
    }
  }
  return doc.save();
}

/** Generated once and kept in the temp dir: pdf-lib needs a while for ~800 pages. */
async function tenMegabytePdf(): Promise<Uint8Array> {
  const cache = path.join(tmpdir(), 'dbops-bench-10mb.pdf');
  try {
    return new Uint8Array(await readFile(cache));
  } catch {
    const probe = await pdfOfPages(20);
    const pages = Math.floor((20 * (MAX_FILE_BYTES * 0.985)) / probe.length);
    const pdf = await pdfOfPages(pages);
    await writeFile(cache, pdf);
    return pdf;
  }
}

const progress = (what: string): void => {
  process.stderr.write(`[${new Date().toISOString()}] ${what}\n`);
};

async function main(): Promise<void> {
  const store = await PgliteStore.open();
  await migrate(store, serviceMigrations);
  const embedder = new HashingEmbedder();
  const userId = randomUUID();
  await store.query(`INSERT INTO users (id, issuer, subject) VALUES ($1::uuid, 'bench', $1::text)`, [userId]);

  if (PHASE !== 'query') await ingestBench(store, embedder, userId);
  if (PHASE !== 'ingest') await queryBench(store, embedder, userId);
  await store.close();
}

async function ingestBench(store: PgliteStore, embedder: HashingEmbedder, userId: string): Promise<void> {
  const deps = { store, embedder, clock: systemClock };
  // 1. The 10 MB PDF.
  const pdf = await tenMegabytePdf();
  progress('PDF ready');
  let c0 = cpuMs();
  let t0 = performance.now();
  const prepared = await prepareDocument({ filename: 'handbook.pdf', bytes: pdf });
  const prepareMs = ms(t0);
  const prepareCpu = cpuMs() - c0;
  c0 = cpuMs();
  t0 = performance.now();
  const embedded = await embedDocument(embedder, prepared);
  const embedMs = ms(t0);
  const embedCpu = cpuMs() - c0;
  c0 = cpuMs();
  t0 = performance.now();
  await saveDocuments(store, embedder, { userId, connectionId: randomUUID(), documents: [embedded], now: new Date() });
  const saveMs = ms(t0);
  const saveCpu = cpuMs() - c0;
  const textChars = prepared.chunks.reduce((s, c) => s + c.content.length, 0);
  console.log(`PDF: ${(pdf.length / 1048576).toFixed(2)} MiB, ${prepared.chunks.length} chunks, ${(textChars / 1e6).toFixed(2)} M chars of chunk text`);
  console.log(`  wall: extract+chunk ${prepareMs.toFixed(0)} ms, embed ${embedMs.toFixed(0)} ms, store ${saveMs.toFixed(0)} ms, total ${(prepareMs + embedMs + saveMs).toFixed(0)} ms`);
  console.log(`  CPU:  extract+chunk ${prepareCpu.toFixed(0)} ms, embed ${embedCpu.toFixed(0)} ms, store ${saveCpu.toFixed(0)} ms, total ${(prepareCpu + embedCpu + saveCpu).toFixed(0)} ms`);

  // 2. 50 Markdown files of ~20 KB in one batch.
  const files = Array.from({ length: 50 }, (_, i) => {
    let md = `# Runbook ${i}\n\n`;
    for (let s = 0; s < 8; s++) {
      md += `## Section ${s}\n\n`;
      for (let p = 0; p < 4; p++) md += `${paragraph()}\n\n`;
    }
    return { filename: `runbook-${i}.md`, bytes: new TextEncoder().encode(md) };
  });
  const mdBytes = files.reduce((s, f) => s + f.bytes.length, 0);
  c0 = cpuMs();
  t0 = performance.now();
  const batch = await ingestDocuments(deps, { userId, connectionId: randomUUID(), files });
  console.log(`Markdown batch: 50 files, ${(mdBytes / 1048576).toFixed(2)} MiB, ${batch.total_chunks} chunks, wall ${ms(t0).toFixed(0)} ms, CPU ${(cpuMs() - c0).toFixed(0)} ms`);

}

/** Fills one connection with random unit vectors and random table mentions, all inside PostgreSQL. */
async function sqlCorpus(store: PgliteStore, userId: string, connectionId: string): Promise<void> {
  for (let d = 0; d * 1000 < CHUNKS; d++) {
    const documentId = randomUUID();
    const n = Math.min(1000, CHUNKS - d * 1000);
    await store.query(
      `INSERT INTO documents (id, user_id, connection_id, filename, content_type, size_bytes, sha256, chunk_count) VALUES ($1, $2, $3, $4, 'text/markdown', 1, '-', $5)`,
      [documentId, userId, connectionId, `doc-${d}.md`, n],
    );
    await store.query(
      `INSERT INTO document_chunks (document_id, user_id, connection_id, chunk_index, heading, content, identifiers, embedding, embedding_model, embedding_dimension)
       SELECT $1, $2, $3, i, NULL, 'synthetic chunk ' || i,
              CASE WHEN random() < 0.3 THEN ARRAY[($5::text[])[1 + floor(random() * 10)::int]] ELSE '{}'::text[] END,
              (SELECT l2_normalize(array_agg(random() - 0.5)::vector) FROM generate_series(1, 384) WHERE i >= 0),
              $4, 384
       FROM generate_series(0, $6 - 1) AS i`,
      [documentId, userId, connectionId, 'dbops-hashing-v1', TABLES, n],
    );
    if (d % 20 === 19) progress(`${(d + 1) * 1000} chunks stored`);
  }
}

async function queryBench(store: PgliteStore, embedder: HashingEmbedder, userId: string): Promise<void> {
  // 3. 100,000 chunks on one connection, then the ranking query.
  const connectionId = randomUUID();
  await store.query('DROP INDEX document_chunks_embedding');
  let c0 = cpuMs();
  let t0 = performance.now();
  if (values.corpus === 'sql') await sqlCorpus(store, userId, connectionId);
  else {
  const perDoc = 1000;
  for (let d = 0; d * perDoc < CHUNKS; d++) {
    const chunks = Array.from({ length: Math.min(perDoc, CHUNKS - d * perDoc) }, (_, index) => ({ index, heading: `Doc ${d}`, content: paragraph() }));
    const doc = { filename: `doc-${d}.md`, kind: 'markdown' as const, contentType: 'text/markdown', sizeBytes: 1, sha256: '-', chunks };
    await saveDocuments(store, embedder, { userId, connectionId, documents: [await embedDocument(embedder, doc)], now: new Date() });
    if (d % 10 === 9) progress(`${(d + 1) * perDoc} chunks stored`);
  }
  }
  const loadMs = ms(t0);
  c0 = cpuMs();
  t0 = performance.now();
  await store.query('CREATE INDEX document_chunks_embedding ON document_chunks USING hnsw (embedding vector_cosine_ops)');
  const indexMs = ms(t0);
  const indexCpu = cpuMs() - c0;
  progress('HNSW built');
  const total = (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunks')).rows[0]!.n;
  console.log(`Corpus: ${CHUNKS} chunks on one connection (${total} in the store) stored in ${(loadMs / 1000).toFixed(1)} s; HNSW build wall ${(indexMs / 1000).toFixed(1)} s, CPU ${(indexCpu / 1000).toFixed(1)} s`);

  const run = async (withTables: boolean): Promise<readonly [number[], number[]]> => {
    const times: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < QUERIES + 10; i++) {
      const query = sentence();
      const tableNames = withTables ? [TABLES[i % TABLES.length]!] : [];
      const c = cpuMs();
      const t = performance.now();
      const r = await findRelevantDocumentChunks(store, embedder, { userId, connectionId, query, tableNames, limit: 10 });
      if (i >= 10) {
        times.push(ms(t));
        cpus.push(cpuMs() - c);
      }
      if (r.length !== 10) throw new Error(`expected 10 chunks, got ${r.length}`);
    }
    return [times, cpus] as const;
  };
  for (const [label, withTables] of [['query text only', false], ['with one table name', true]] as const) {
    const [wall, cpu] = await run(withTables);
    console.log(
      `Top-10 query, ${label}: wall p50 ${pct(wall, 50).toFixed(1)} ms, p95 ${pct(wall, 95).toFixed(1)} ms; CPU p50 ${pct(cpu, 50).toFixed(1)} ms (${QUERIES} queries)`,
    );
  }
}

await main();
