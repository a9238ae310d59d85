/**
 * What a chunk costs to store in PGlite with each vector index (issue #21): no index, HNSW (m = 8,
 * cosine) maintained per insert, HNSW over binary-quantized vectors (Hamming), and for the
 * unindexed table the HNSW build afterwards and an exact top-10 scan.
 *
 *   N=6000 npx tsx bench/pglite-vector-index.ts            # V=none,hnsw_m8,bq_m16 by default
 */
import { PgliteStore } from '../packages/core/src/store/pglite-store';
import { HashingEmbedder } from '../packages/core/src/embeddings/hashing-embedder';
import { vectorParam } from '../packages/core/src/store/vector-param';
import { paragraph, reseed } from './document-corpus';
import { identifierTokens } from '../packages/core/src/documents/identifiers';
import { randomUUID } from 'node:crypto';
const doc = randomUUID();
const user = randomUUID();

const N = Number(process.env.N ?? 6000);
reseed();
const texts: string[] = [];
for (let i = 0; i < N; i++) {
  let t = '';
  while (t.length < 900) t += paragraph() + ' ';
  texts.push(t.slice(0, 1000));
}
const emb = new HashingEmbedder();
const vecs = await emb.embed(texts);
const queries = await emb.embed(Array.from({ length: 20 }, () => paragraph()));
const variants: Record<string, string[]> = {
  none: [],
  hnsw_m8: ['CREATE INDEX ON c USING hnsw (embedding vector_cosine_ops) WITH (m = 8, ef_construction = 64)'],
  gin: ['CREATE INDEX ON c USING gin (identifiers)'],
  btrees: ['CREATE INDEX ON c (connection_id, user_id)', 'CREATE UNIQUE INDEX ON c (document_id, chunk_index)'],
  bq_m16: ['CREATE INDEX ON c USING hnsw ((binary_quantize(embedding)::bit(384)) bit_hamming_ops) WITH (m = 16, ef_construction = 64)'],
};
for (const name of (process.env.V ?? 'none,hnsw_m8,bq_m16').split(',')) {
  const db = await PgliteStore.open();
  await db.exec(
    `CREATE TABLE c (id serial primary key, document_id uuid, connection_id uuid, user_id uuid, chunk_index int, content text, identifiers text[], embedding vector(384)); ALTER TABLE c ALTER COLUMN embedding SET STORAGE PLAIN`,
  );
  for (const s of variants[name]!) await db.exec(s);
  const t0 = performance.now();
  await db.transaction(async (tx) => {
    for (let s = 0; s < N; s += 200) {
      const params: unknown[] = [];
      const rows: string[] = [];
      for (let i = s; i < Math.min(N, s + 200); i++) {
        const p = params.length;
        rows.push(`($${p + 1}, $${p + 2}::text[], $${p + 3}::vector, $${p + 4}, $${p + 5}, $${p + 5}, $${p + 6})`);
        params.push(texts[i], identifierTokens(texts[i]!), vectorParam(vecs[i]!), doc, user, i);
      }
      await tx.query(`INSERT INTO c (content, identifiers, embedding, document_id, connection_id, user_id, chunk_index) VALUES ${rows.join(',')}`, params);
    }
  });
  const ins = performance.now() - t0;
  let extra = '';
  if (name === 'none') {
    // SKIP_BUILD=1: only the exact query (the build after the load is the slow part).
    if (!process.env.SKIP_BUILD) {
      const b0 = performance.now();
      await db.exec(`SET maintenance_work_mem='256MB'; CREATE INDEX ON c USING hnsw (embedding vector_cosine_ops) WITH (m = 8, ef_construction = 64)`);
      extra += ` build m8 after: ${(performance.now() - b0).toFixed(0)} ms;`;
      await db.exec('DROP INDEX c_embedding_idx');
    }
    const q0 = performance.now();
    // As the context query reads a connection's chunks: through the scope index, then sorted.
    for (const q of queries)
      await db.query(`SELECT id FROM c WHERE connection_id = $2 AND user_id = $2 ORDER BY embedding <=> $1::vector LIMIT 10`, [vectorParam(q), user]);
    extra += ` exact top10: ${((performance.now() - q0) / queries.length).toFixed(1)} ms/query;`;
  }
  console.log(`${name}: N=${N} insert ${ins.toFixed(0)} ms (${(ins / N).toFixed(2)} ms/chunk);${extra}`);
  await db.close();
}
