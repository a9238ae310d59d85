import { findRelevantDocumentChunks } from '../context/document-context';
import { ensureSnapshot, type IntrospectionDeps } from '../introspection/introspect-connection';
import { searchSchemaChunks } from '../introspection/schema-chunks';
import type { ColumnValueSample, EnumInfo, TableInfo } from '../introspection/schema-snapshot';
import { AppError } from '../errors/app-error';
import { questionWords } from './offline/words';
import { findValueMatches } from './value-matches';

/** What step 1 found for a question. */
export interface RetrievedContext {
  /** Retrieved tables best first, then their one-hop foreign-key neighbours (similarity 0). */
  tables: Array<{ table: TableInfo; similarity: number; via_foreign_key: boolean }>;
  enums: EnumInfo[];
  /** Sampled values of the context tables' text columns (see introspection/column-values.ts). */
  values: ColumnValueSample[];
  documents: Array<{ filename: string; excerpt: string; relevance: number }>;
  schemaChunksUsed: number;
  docChunksUsed: number;
}

const key = (schema: string, name: string): string => `${schema}.${name}`;

/** An embeddings API that is down is the service's problem, not the question's: 503, retryable. */
const embeddingFailure = (error: unknown): AppError =>
  error instanceof AppError
    ? error
    : new AppError('SERVICE_UNAVAILABLE', 'Retrieving context for the question failed: the embeddings service did not answer. Retry later.', { cause: error });

/**
 * Step 1 of the pipeline: the `maxSchemaChunks` schema chunks (one per table, stored at
 * introspection) and `maxDocChunks` document chunks closest to the question, plus every table
 * one foreign key away from a retrieved table in either direction, so the generator can join
 * (a question about "customers with the most orders" may only retrieve customers). The latest
 * snapshot supplies the full table metadata; a connection never introspected is introspected.
 */
export async function retrieveContext(
  deps: IntrospectionDeps,
  input: { userId: string; connectionId: string; question: string; maxSchemaChunks: number; maxDocChunks: number },
): Promise<RetrievedContext> {
  const snapshot = await ensureSnapshot(deps, input.userId, input.connectionId);
  const [embedding] = await deps.embedder.embed([input.question]).catch((error: unknown) => {
    throw embeddingFailure(error);
  });
  // Partitions and tables that inherit are one table to the user: their chunks stand for the
  // parent, which is what a question is answered from. More chunks are ranked than kept, so
  // that twelve monthly partitions do not crowd out the tables the question is about.
  const byKey = new Map(snapshot.tables.map((t) => [key(t.schema, t.name), t]));
  const parentOf = (t: TableInfo): TableInfo => {
    const seen = new Set<TableInfo>();
    let at = t;
    for (;;) {
      seen.add(at);
      // partition_of is `schema.name` as `key` writes it.
      const parent = at.partition_of ? byKey.get(at.partition_of) : at.inherits?.[0] ? byKey.get(key(at.inherits[0].schema, at.inherits[0].name)) : undefined;
      if (!parent || seen.has(parent)) return at;
      at = parent;
    }
  };
  const answerable = snapshot.tables.filter((t) => parentOf(t) === t);
  // Foreign keys declared on each partition (pagila's payment) are the parent's to the user: the
  // parent given to the generator carries them, so it can join like any table.
  const withPartitionKeys = new Map<TableInfo, TableInfo>();
  for (const t of snapshot.tables) {
    const parent = parentOf(t);
    if (parent === t || !t.partition_of) continue;
    const base = withPartitionKeys.get(parent) ?? { ...parent, foreign_keys: [...parent.foreign_keys] };
    for (const fk of t.foreign_keys) {
      const same = (f: typeof fk) =>
        f.referenced_schema === fk.referenced_schema && f.referenced_table === fk.referenced_table && f.columns.join() === fk.columns.join();
      if (parent.columns.some((c) => c.name === fk.columns[0]) && !base.foreign_keys.some(same)) base.foreign_keys.push(fk);
    }
    withPartitionKeys.set(parent, base);
  }
  const asGiven = (t: TableInfo): TableInfo => withPartitionKeys.get(t) ?? t;
  const chunks = await searchSchemaChunks(deps.store, {
    userId: input.userId,
    connectionId: input.connectionId,
    embedding: embedding ?? [],
    limit: Math.min(100, input.maxSchemaChunks * 4),
    model: deps.embedder.model,
  });
  const picked = new Map<string, RetrievedContext['tables'][number]>();
  for (const c of chunks) {
    const found = byKey.get(key(c.table_schema, c.table_name));
    if (!found) continue;
    const t = parentOf(found);
    if (picked.has(key(t.schema, t.name))) continue;
    if (picked.size >= input.maxSchemaChunks) break;
    picked.set(key(t.schema, t.name), { table: asGiven(t), similarity: Number(c.similarity.toFixed(4)), via_foreign_key: false });
  }
  const schemaChunksUsed = picked.size;
  const retrieved = [...picked.values()].map((p) => p.table);
  const addHop = (found: TableInfo | undefined): void => {
    const t = found && parentOf(found);
    if (t && !picked.has(key(t.schema, t.name))) picked.set(key(t.schema, t.name), { table: asGiven(t), similarity: 0, via_foreign_key: true });
  };
  // A value the question names ("Italian", "PG-13") brings the table that holds it, so that the
  // generator can filter on it even when the table's description was not close to the question.
  const samples = snapshot.value_samples ?? [];
  const valueTables = findValueMatches(questionWords(input.question), samples)
    .flatMap((m) => m.holders.map((h) => byKey.get(key(h.sample.schema, h.sample.table))))
    .filter((t): t is TableInfo => t !== undefined)
    .map((t) => asGiven(parentOf(t)));
  for (const t of [...retrieved, ...valueTables]) {
    addHop(t);
    for (const fk of t.foreign_keys) addHop(byKey.get(key(fk.referenced_schema, fk.referenced_table)));
    for (const other of answerable) {
      if (asGiven(other).foreign_keys.some((fk) => fk.referenced_schema === t.schema && fk.referenced_table === t.name)) addHop(other);
    }
  }
  const docs =
    input.maxDocChunks === 0
      ? []
      : await findRelevantDocumentChunks(deps.store, deps.embedder, {
          userId: input.userId,
          connectionId: input.connectionId,
          query: input.question,
          tableNames: retrieved.map((t) => key(t.schema, t.name)),
          limit: input.maxDocChunks,
        }).catch((error: unknown) => {
          throw embeddingFailure(error);
        });
  return {
    tables: [...picked.values()],
    enums: snapshot.enums,
    values: samples.filter((v) => picked.has(key(v.schema, v.table))),
    documents: docs.map((d) => ({ filename: d.document_filename, excerpt: d.excerpt, relevance: d.relevance })),
    schemaChunksUsed,
    docChunksUsed: docs.length,
  };
}
