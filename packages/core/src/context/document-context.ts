import { VISIBLE_CHUNK } from '../documents/document-generations';
import { bareTableName } from '../documents/identifiers';
import type { Embedder } from '../embeddings/embedder';
import type { Queryable } from '../store/store';
import { vectorParam } from '../store/vector-param';
import { excerptAround } from './excerpt';
import { combinedRelevance } from './relevance';

/** A stored document chunk ranked for a question or a set of tables. */
export interface RankedDocumentChunk {
  document_id: string;
  document_filename: string;
  chunk_index: number;
  excerpt: string;
  /** Similarity in [0, 1], higher is more relevant (see docs/documents.md, "Ranking"). */
  relevance: number;
  /** Heading path of the chunk ("Billing > Refunds"), or null. */
  heading?: string | null;
  /** Which of the requested table names the chunk names as a whole identifier. */
  mentioned_tables?: string[];
}

/** Options of {@link findRelevantDocumentChunks}. */
export interface DocumentContextQuery {
  userId: string;
  connectionId: string;
  /** Natural-language question or SQL; may be empty when only tables matter. */
  query: string;
  /** Tables the caller is about, bare ("orders") or qualified ("public.orders"). */
  tableNames: readonly string[];
  /** Most chunks to return; 0 returns none. */
  limit: number;
}

interface CandidateRow {
  document_id: string;
  filename: string;
  chunk_index: number;
  heading: string | null;
  content: string;
  identifiers: string[];
  sim_query: number | string | null;
  sim_tables: number | string | null;
}

/** Nearest neighbours considered before re-scoring: generous so the mention boost has room to act. */
const candidatesFor = (limit: number): number => Math.min(400, Math.max(40, limit * 4));

/**
 * HNSW search breadth. The index is built with m = 8 (cheap inserts in PGlite, see migration
 * 0402), whose sparser graph needs a wide search: over 100,000 chunks, ef_search 40 found 42 %
 * of the exact top 10 among the candidates and 400 found 82 %, for 11 ms instead of 3 ms
 * (docs/benchmarks.md, "Documents").
 */
const EF_SEARCH = 400;

type MaybeStore = Queryable & { transaction?: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> };

/**
 * Runs `fn` where HNSW scans keep going until enough rows pass the tenant filter (pgvector 0.8
 * iterative scans); without it a filtered HNSW scan can return fewer rows than asked for.
 * The setting is local to the transaction, and skipped silently on an older pgvector.
 */
async function withIterativeScan<T>(db: MaybeStore, efSearch: number, fn: (q: Queryable) => Promise<T>): Promise<T> {
  const run = async (q: Queryable): Promise<T> => {
    await q.query(`SELECT '[1]'::vector`); // loads pgvector in this session so its settings exist
    await q.query(
      `SELECT set_config(name, CASE name WHEN 'hnsw.iterative_scan' THEN 'relaxed_order' ELSE $1 END, true)
       FROM pg_settings WHERE name IN ('hnsw.iterative_scan', 'hnsw.ef_search')`,
      [String(efSearch)],
    );
    return fn(q);
  };
  return typeof db.transaction === 'function' ? db.transaction(run) : run(db);
}

/**
 * Document chunks of a connection most relevant to `query` and `tableNames`, best first.
 *
 * Candidates are the nearest chunks to the query by cosine distance (HNSW) plus the nearest
 * chunks that name one of the tables (the planner picks the GIN index on identifiers when few
 * chunks name them, else the HNSW scan with the mention as a filter; an exact sort of every
 * mentioning chunk took 450 ms over 28,000 of them); each is then scored by
 * {@link combinedRelevance}: vector similarity to the query and to the table names, and a
 * step for naming a requested table exactly, so a chunk that names the table always ranks
 * above one that does not. Only vectors of the current embedder's model are compared, and only
 * chunks of the generation their document row names (not a running batch's, not a replaced
 * document's awaiting deletion: migration 0405).
 */
export async function findRelevantDocumentChunks(db: Queryable, embedder: Embedder, input: DocumentContextQuery): Promise<RankedDocumentChunk[]> {
  const limit = Math.max(0, Math.floor(input.limit));
  const tables = [...new Set(input.tableNames.map(bareTableName).filter((t) => t !== ''))];
  const query = input.query.trim();
  if (limit === 0 || (query === '' && tables.length === 0)) return [];

  const tableText = tables.join(' ');
  const [queryVector, tableVector] = await embedder.embed([query || tableText, tableText || query]);
  const k = candidatesFor(limit);
  const rows = await withIterativeScan(
    db as MaybeStore,
    Math.max(k, EF_SEARCH),
    async (q) =>
      (
        await q.query<CandidateRow>(
          `WITH by_query AS (
           SELECT c.id FROM document_chunks c
           WHERE c.user_id = $1 AND c.connection_id = $2 AND c.embedding_model = $3 AND ${VISIBLE_CHUNK}
           ORDER BY c.embedding <=> $4::vector LIMIT $6
         ), by_mention AS (
           SELECT c.id FROM document_chunks c
           WHERE c.user_id = $1 AND c.connection_id = $2 AND c.embedding_model = $3 AND c.identifiers && $7::text[] AND ${VISIBLE_CHUNK}
           ORDER BY c.embedding <=> $4::vector LIMIT $6
         )
         SELECT d.id AS document_id, d.filename, c.chunk_index + coalesce(d.part_offsets[c.part + 1], 0) AS chunk_index,
                c.heading, c.content, c.identifiers,
                1 - (c.embedding <=> $4::vector) AS sim_query,
                1 - (c.embedding <=> $5::vector) AS sim_tables
         FROM document_chunks c JOIN documents d ON d.id = c.document_id
         WHERE c.id IN (SELECT id FROM by_query UNION SELECT id FROM by_mention)`,
          [input.userId, input.connectionId, embedder.model, vectorParam(queryVector!), vectorParam(tableVector!), k, tables],
        )
      ).rows,
  );

  return rows
    .map((r) => {
      const words = new Set(r.identifiers);
      const mentioned = tables.filter((t) => words.has(t));
      const relevance = combinedRelevance({
        queryGiven: query !== '',
        tablesGiven: tables.length > 0,
        simQuery: Number(r.sim_query ?? 0),
        simTables: Number(r.sim_tables ?? 0),
        mentionsTable: mentioned.length > 0,
      });
      return {
        chunk: {
          document_id: r.document_id,
          document_filename: r.filename,
          chunk_index: Number(r.chunk_index),
          excerpt: excerptAround(r.content, mentioned),
          relevance,
          heading: r.heading,
          mentioned_tables: mentioned,
        } satisfies RankedDocumentChunk,
        mentions: mentioned.length,
      };
    })
    .sort(
      (a, b) =>
        b.chunk.relevance - a.chunk.relevance ||
        b.mentions - a.mentions ||
        a.chunk.document_filename.localeCompare(b.chunk.document_filename) ||
        a.chunk.chunk_index - b.chunk.chunk_index,
    )
    .slice(0, limit)
    .map((x) => x.chunk);
}
