import type { RankedDocumentChunk } from '../context/document-context';
import type { CatalogTable } from './live-catalog';

/** An index proposed from the query text and the schema context, before validation. */
export interface SuggestedIndex {
  /** Table name, optionally schema-qualified. */
  table: string;
  /** Key columns or expressions (unqualified) in index order; "col DESC" allowed. */
  columns: string[];
  /** Partial index predicate, or null. */
  where: string | null;
  reason: string;
}

export interface IndexSuggestionInput {
  sql: string;
  /** Tables the query reads, from the live catalog. */
  tables: CatalogTable[];
  /** Compact text of the plan, so a model sees what the planner chose. */
  planText: string;
  documents: RankedDocumentChunk[];
}

/**
 * The port behind `llm_suggested` recommendations: the OpenAI adapter in the cloud, the offline
 * pattern suggester otherwise. Every suggestion is validated like a rule-based one before use.
 */
export interface IndexSuggester {
  readonly name: string;
  suggest(input: IndexSuggestionInput): Promise<SuggestedIndex[]>;
}
