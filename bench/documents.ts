/**
 * Documents: index a 10 MB PDF and a batch of 50 Markdown files, and the top-10 similarity
 * query over 100,000 chunks of one connection. Engine-level (no HTTP): the same functions the
 * upload and context-query handlers call, on the embedded PGlite state store with pgvector.
 *
 *   npx tsx bench/documents.ts                                  # everything
 *   npx tsx bench/documents.ts --phase ingest                   # both 10 MB PDFs and the Markdown batch
 *   npx tsx bench/documents.ts --phase ingest --pdf text --pages 200   # quick: the first 200 pages only
 *   npx tsx bench/documents.ts --phase query [--chunks 100000] [--queries 200] [--corpus text|random]
 *
 * Two 10 MB PDFs, both generated with pdf-lib and kept in the temp dir:
 * - `text`: text only, ~3,350 dense pages, 17.5 M characters (pdf-lib compresses content streams,
 *   so 10 MB holds a whole bookshelf). The worst case for text extraction and chunk count.
 * - `report`: 100 of the same dense text pages plus full-page raster images up to 10 MB, the
 *   shape of a real report or manual, where images and fonts make up most of the bytes.
 * Each is timed per phase (pdfjs text extraction, chunking, embedding, the one-transaction store
 * with the HNSW index maintained per insert), in wall-clock and process CPU time.
 *
 * Query phase: 100,000 chunks on one connection (beside the ingest phase's other connections),
 * loaded without the HNSW index, which is then built once (as a bulk load would); then
 * findRelevantDocumentChunks (limit 10, with and without a table name) p50/p95 over distinct
 * queries, the query plan, and the recall of the HNSW candidates against an exact scan.
 * `--corpus text` embeds generated paragraphs with the hashing embedder (default);
 * `--corpus random` uses random unit vectors, the worst case for HNSW (no structure at all).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { cachedPdf, drawTextPages, paragraph, pdfOfPages, rand, sentence, TABLES, textPdf } from './document-corpus';
import { findRelevantDocumentChunks } from '../packages/core/src/context/document-context';
import { chunkPlainText } from '../packages/core/src/documents/chunk-text';
import { embedDocument, saveDocuments } from '../packages/core/src/documents/document-store';
import { extractPdfText } from '../packages/core/src/documents/extract-pdf';
import { ingestDocuments } from '../packages/core/src/documents/ingest-documents';
import { MAX_FILE_BYTES } from '../packages/core/src/documents/limits';
import type { PreparedDocument } from '../packages/core/src/documents/prepare-document';
import { HashingEmbedder } from '../packages/core/src/embeddings/hashing-embedder';
import { migrate } from '../packages/core/src/store/migrate';
import { serviceMigrations } from '../packages/core/src/store/migrations/index';
import { PgliteStore } from '../packages/core/src/store/pglite-store';
import { vectorParam } from '../packages/core/src/store/vector-param';
import { systemClock } from '../packages/core/src/util/clock';
import { loadSettings } from '../packages/core/src/config';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    /** `all`; `ingest` (PDFs and Markdown only); `query` (corpus and queries only). */
    phase: { type: 'string', default: 'all' },
    /** `text`: embedded generated paragraphs; `random` (or the old name `sql`): random unit vectors. */
    corpus: { type: 'string', default: 'text' },
    /** `text`, `report` or `both`. */
    pdf: { type: 'string', default: 'both' },
    /** Only the first N pages of the text PDF (quick runs while iterating). */
    pages: { type: 'string' },
  },
});
const PHASE = values.phase;
const CHUNKS = Number(values.chunks);
const QUERIES = Number(values.queries);
const CORPUS = values.corpus === 'sql' ? 'random' : values.corpus;

const ms = (t0: number): number => performance.now() - t0;
/** Process CPU time in ms: PGlite runs in this process, so this covers the database work too. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const s1 = (x: number): string => (x / 1000).toFixed(2);

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const c0 = cpuMs();
  const t0 = performance.now();
  const value = await fn();
  return { value, wall: ms(t0), cpu: cpuMs() - c0 };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** An RGB PNG of noise (incompressible, so its size is predictable): a stand-in for a photo or scan. */
function noisePng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const raw = randomBytes((width * 3 + 1) * height);
  for (let row = 0; row < height; row++) raw[row * (width * 3 + 1)] = 0; // filter type: none
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** 100 dense text pages, then full-page images until the file is just under 10 MB. */
async function reportPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  await drawTextPages(doc, 100);
  const textBytes = (await doc.save()).length;
  const image = noisePng(640, 360);
  const count = Math.floor((MAX_FILE_BYTES * 0.985 - textBytes) / image.length);
  for (let i = 0; i < count; i++) {
    const png = await doc.embedPng(i === 0 ? image : noisePng(640, 360));
    const page = doc.addPage();
    page.drawImage(png, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  return doc.save();
}

/** The first `pages` pages of `pdf`. */
async function firstPages(pdf: Uint8Array, pages: number): Promise<Uint8Array> {
  const from = await PDFDocument.load(pdf);
  const to = await PDFDocument.create();
  for (const p of await to.copyPages(
    from,
    Array.from({ length: Math.min(pages, from.getPageCount()) }, (_, i) => i),
  ))
    to.addPage(p);
  return to.save();
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

/** One PDF through the same steps as prepareDocument, embedDocument and saveDocuments, each timed. */
async function pdfBench(store: PgliteStore, embedder: HashingEmbedder, userId: string, label: string, pdf: Uint8Array): Promise<void> {
  const extract = await timed(() => extractPdfText(`${label}.pdf`, pdf));
  // What prepareDocument does for a PDF after extraction.
  const chunk = await timed(async () => chunkPlainText(extract.value));
  const prepared: PreparedDocument = {
    filename: `${label}.pdf`,
    kind: 'pdf',
    contentType: 'application/pdf',
    sizeBytes: pdf.length,
    sha256: '-',
    chunks: chunk.value,
  };
  const embed = await timed(() => embedDocument(embedder, prepared));
  const save = await timed(() => saveDocuments(store, embedder, { userId, connectionId: randomUUID(), documents: [embed.value], now: new Date() }));
  const pages = (await PDFDocument.load(pdf)).getPageCount();
  const phases = [extract, chunk, embed, save];
  const total = (k: 'wall' | 'cpu'): number => phases.reduce((s, p) => s + p[k], 0);
  console.log(
    `PDF ${label}: ${(pdf.length / 1048576).toFixed(2)} MiB, ${pages} pages, ${(extract.value.length / 1e6).toFixed(2)} M chars -> ${chunk.value.length} chunks`,
  );
  console.log(`  wall s: extract ${s1(extract.wall)}, chunk ${s1(chunk.wall)}, embed ${s1(embed.wall)}, store ${s1(save.wall)}, total ${s1(total('wall'))}`);
  console.log(`  CPU s:  extract ${s1(extract.cpu)}, chunk ${s1(chunk.cpu)}, embed ${s1(embed.cpu)}, store ${s1(save.cpu)}, total ${s1(total('cpu'))}`);
}

async function ingestBench(store: PgliteStore, embedder: HashingEmbedder, userId: string): Promise<void> {
  const deps = { store, embedder, clock: systemClock, settings: loadSettings({}) };
  const which = values.pdf;
  let text = which === 'report' ? undefined : await textPdf();
  if (text && values.pages) text = await firstPages(text, Number(values.pages));
  const report = which === 'text' ? undefined : await cachedPdf('dbops-bench-10mb-report-v2.pdf', reportPdf);
  progress('PDFs ready');

  // pdfjs is loaded on the first PDF of a process (a Lambda cold start pays it once).
  const load = await timed(async () => extractPdfText('tiny.pdf', await pdfOfPages(1)));
  console.log(`pdfjs load + 1-page PDF (once per process): wall ${s1(load.wall)} s, CPU ${s1(load.cpu)} s`);
  // The first HNSW inserts of a process also pay for loading pgvector's code paths.
  await saveDocuments(store, embedder, {
    userId,
    connectionId: randomUUID(),
    documents: [
      await embedDocument(embedder, {
        filename: 'warm.md',
        kind: 'markdown',
        contentType: 'text/markdown',
        sizeBytes: 1,
        sha256: '-',
        chunks: [{ index: 0, heading: null, content: paragraph() }],
      }),
    ],
    now: new Date(),
  });

  if (report) await pdfBench(store, embedder, userId, 'report', report);
  if (text) await pdfBench(store, embedder, userId, values.pages ? `text-first-${values.pages}-pages` : 'text', text);

  // 50 Markdown files of ~20 KB in one batch.
  const files = Array.from({ length: 50 }, (_, i) => {
    let md = `# Runbook ${i}\n\n`;
    for (let s = 0; s < 8; s++) {
      md += `## Section ${s}\n\n`;
      for (let p = 0; p < 4; p++) md += `${paragraph()}\n\n`;
    }
    return { filename: `runbook-${i}.md`, bytes: new TextEncoder().encode(md) };
  });
  const mdBytes = files.reduce((s, f) => s + f.bytes.length, 0);
  const batch = await timed(() => ingestDocuments(deps, { userId, connectionId: randomUUID(), files }));
  console.log(
    `Markdown batch: 50 files, ${(mdBytes / 1048576).toFixed(2)} MiB, ${batch.value.total_chunks} chunks, wall ${s1(batch.wall)} s, CPU ${s1(batch.cpu)} s`,
  );
}

const gaussian = (): number => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
function randomUnitVector(): number[] {
  const v = Array.from({ length: 384 }, gaussian);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** Random unit vectors and random table mentions, 1,000 chunks per document, in multi-row inserts. */
async function randomCorpus(store: PgliteStore, userId: string, connectionId: string): Promise<void> {
  for (let d = 0; d * 1000 < CHUNKS; d++) {
    const documentId = randomUUID();
    const n = Math.min(1000, CHUNKS - d * 1000);
    await store.query(
      `INSERT INTO documents (id, user_id, connection_id, filename, content_type, size_bytes, sha256, chunk_count, generation) VALUES ($1, $2, $3, $4, 'text/markdown', 1, '-', $5, $1)`,
      [documentId, userId, connectionId, `doc-${d}.md`, n],
    );
    for (let start = 0; start < n; start += 250) {
      const params: unknown[] = [documentId, userId, connectionId];
      const rows: string[] = [];
      for (let i = start; i < Math.min(n, start + 250); i++) {
        const p = params.length;
        params.push(i, rand() < 0.3 ? [TABLES[Math.floor(rand() * TABLES.length)]!] : [], vectorParam(randomUnitVector()));
        rows.push(`($1, $2, $3, $${p + 1}, 'synthetic chunk', $${p + 2}::text[], $${p + 3}::vector, 'dbops-hashing-v1', 384)`);
      }
      await store.query(
        `INSERT INTO document_chunks (document_id, user_id, connection_id, chunk_index, content, identifiers, embedding, embedding_model, embedding_dimension) VALUES ${rows.join(', ')}`,
        params,
      );
    }
    if (d % 20 === 19) progress(`${(d + 1) * 1000} chunks stored`);
  }
}

async function textCorpus(store: PgliteStore, embedder: HashingEmbedder, userId: string, connectionId: string): Promise<void> {
  const perDoc = 1000;
  for (let d = 0; d * perDoc < CHUNKS; d++) {
    const chunks = Array.from({ length: Math.min(perDoc, CHUNKS - d * perDoc) }, (_, index) => ({ index, heading: `Doc ${d}`, content: paragraph() }));
    const doc = { filename: `doc-${d}.md`, kind: 'markdown' as const, contentType: 'text/markdown', sizeBytes: 1, sha256: '-', chunks };
    await saveDocuments(store, embedder, { userId, connectionId, documents: [await embedDocument(embedder, doc)], now: new Date() });
    if (d % 10 === 9) progress(`${(d + 1) * perDoc} chunks stored`);
  }
}

/** The candidate query of findRelevantDocumentChunks without the join: what the plan must serve from HNSW. */
const NEAREST_SQL = `SELECT id FROM document_chunks WHERE user_id = $1 AND connection_id = $2 AND embedding_model = $3
  ORDER BY embedding <=> $4::vector LIMIT $5`;

async function queryBench(store: PgliteStore, embedder: HashingEmbedder, userId: string): Promise<void> {
  // 100,000 chunks on one connection, loaded without the HNSW index, which is then built once.
  const connectionId = randomUUID();
  // Rebuilt below exactly as the migrations define it.
  const indexDef = (await store.query<{ def: string }>(`SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'document_chunks_embedding'`)).rows[0]!.def;
  await store.query('DROP INDEX document_chunks_embedding');
  const load = await timed(async () => (CORPUS === 'random' ? randomCorpus(store, userId, connectionId) : textCorpus(store, embedder, userId, connectionId)));
  // The build keeps the graph in memory only while it fits maintenance_work_mem (64 MB by
  // default); past that it inserts on disk, many times slower. ~1 GB holds 100,000+ vectors.
  await store.query(`SET maintenance_work_mem = '1GB'`);
  const build = await timed(() => store.query(indexDef));
  await store.query('RESET maintenance_work_mem');
  await store.query('ANALYZE document_chunks');
  progress('HNSW built');
  const total = (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunks')).rows[0]!.n;
  console.log(
    `Corpus (${CORPUS}): ${CHUNKS} chunks on one connection (${total} in the store): load wall ${s1(load.wall)} s, CPU ${s1(load.cpu)} s; ` +
      `HNSW build wall ${s1(build.wall)} s, CPU ${s1(build.cpu)} s\n  (${indexDef})`,
  );

  const [probe] = await embedder.embed([sentence()]);
  const plan = await store.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${NEAREST_SQL}`, [userId, connectionId, embedder.model, vectorParam(probe!), 40]);
  console.log(`Plan of the nearest-chunks query:\n  ${plan.rows.map((r) => r['QUERY PLAN']).join('\n  ')}`);

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
  for (const [label, withTables] of [
    ['query text only', false],
    ['with one table name', true],
  ] as const) {
    const [wall, cpu] = await run(withTables);
    console.log(
      `Top-10 query, ${label}: wall p50 ${pct(wall, 50).toFixed(1)} ms, p95 ${pct(wall, 95).toFixed(1)} ms; CPU p50 ${pct(cpu, 50).toFixed(1)} ms (${QUERIES} queries)`,
    );
  }

  // Recall of the 40 HNSW candidates (what a limit-10 query re-scores) against an exact scan, at
  // the ef_search findRelevantDocumentChunks uses (the candidate count, 40) and above it.
  const probes = await embedder.embed(Array.from({ length: 20 }, sentence));
  const exact: string[][] = [];
  for (const q of probes) {
    const params = [userId, connectionId, embedder.model, vectorParam(q), 40];
    exact.push(
      (await store.query<{ id: string }>(NEAREST_SQL.replace('ORDER BY embedding <=> $4::vector', 'ORDER BY (embedding <=> $4::vector) + 0'), params)).rows.map(
        (r) => r.id,
      ),
    );
  }
  for (const ef of [40, 100, 200, 400]) {
    let found = 0;
    let top10 = 0;
    const times: number[] = [];
    for (const [i, q] of probes.entries()) {
      const params = [userId, connectionId, embedder.model, vectorParam(q), 40];
      const t = performance.now();
      const approx = await store.transaction(async (tx) => {
        await tx.query(`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', $1, true)`, [String(ef)]);
        return (await tx.query<{ id: string }>(NEAREST_SQL, params)).rows.map((r) => r.id);
      });
      times.push(ms(t));
      const set = new Set(approx);
      found += exact[i]!.filter((id) => set.has(id)).length;
      top10 += exact[i]!.slice(0, 10).filter((id) => set.has(id)).length;
    }
    const wanted = exact.reduce((n, e) => n + e.length, 0);
    console.log(
      `HNSW ef_search ${ef} vs an exact scan (20 queries): recall@40 ${((100 * found) / wanted).toFixed(1)} %, ` +
        `exact top 10 among the 40 candidates ${((100 * top10) / (20 * 10)).toFixed(1)} %, nearest-40 query p50 ${pct(times, 50).toFixed(1)} ms`,
    );
  }
  const exactTimes: number[] = [];
  for (const q of probes) {
    const t = performance.now();
    await store.query(NEAREST_SQL.replace('ORDER BY embedding <=> $4::vector', 'ORDER BY (embedding <=> $4::vector) + 0'), [
      userId,
      connectionId,
      embedder.model,
      vectorParam(q),
      40,
    ]);
    exactTimes.push(ms(t));
  }
  console.log(`Exact nearest-40 scan of the connection: p50 ${pct(exactTimes, 50).toFixed(1)} ms`);
}

await main();
