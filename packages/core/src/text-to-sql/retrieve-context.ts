import { findRelevantDocumentChunks } from '../context/document-context';
import { ensureSnapshot, type IntrospectionDeps } from '../introspection/introspect-connection';
import { searchSchemaChunks } from '../introspection/schema-chunks';
import type { EnumInfo, TableInfo } from '../introspection/schema-snapshot';
import { AppError } from '../errors/app-error';

/** What step 1 found for a question. */
export interface RetrievedContext {
  /** Retrieved tables best first, then their one-hop foreign-key neighbours (similarity 0). */
  tables: Array<{ table: TableInfo; similarity: number; via_foreign_key: boolean }>;
  enums: EnumInfo[];
  documents: Array<{ filename: string; excerpt: string; relevance: number }>;
  schemaChunksUsed: number;
  docChunksUsed: number;
}

const key = (schema: string, name: string): string => `${schema}.${name}`;

/** An embeddings API that is down is the service's problem, not the question's: 503, retryable. */
const embeddingFailure = (error: unknown): AppError =>
  error instanceof AppError ? error : new AppError('SERVICE_UNAVAILABLE', 'Retrieving context for the question failed: the embeddings service did not answer. Retry later.', { cause: error });

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
  const chunks = await searchSchemaChunks(deps.store, {
    userId: input.userId,
    connectionId: input.connectionId,
    embedding: embedding ?? [],
    limit: input.maxSchemaChunks,
    model: deps.embedder.model,
  });
  const byKey = new Map(snapshot.tables.map((t) => [key(t.schema, t.name), t]));
  const picked = new Map<string, RetrievedContext['tables'][number]>();
  for (const c of chunks) {
    const t = byKey.get(key(c.table_schema, c.table_name));
    if (t) picked.set(key(t.schema, t.name), { table: t, similarity: Number(c.similarity.toFixed(4)), via_foreign_key: false });
  }
  const retrieved = [...picked.values()].map((p) => p.table);
  const addHop = (t: TableInfo | undefined): void => {
    if (t && !picked.has(key(t.schema, t.name))) picked.set(key(t.schema, t.name), { table: t, similarity: 0, via_foreign_key: true });
  };
  for (const t of retrieved) {
    for (const fk of t.foreign_keys) addHop(byKey.get(key(fk.referenced_schema, fk.referenced_table)));
    for (const other of snapshot.tables) {
      if (other.foreign_keys.some((fk) => fk.referenced_schema === t.schema && fk.referenced_table === t.name)) addHop(other);
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
    documents: docs.map((d) => ({ filename: d.document_filename, excerpt: d.excerpt, relevance: d.relevance })),
    schemaChunksUsed: chunks.length,
    docChunksUsed: docs.length,
  };
}
