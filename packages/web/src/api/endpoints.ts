import { api, apiData } from './client';
import type { AnalysisReport, Connection, ContextResult, DocumentBatch, DocumentInfo, MigrationRequest, OptimizationResult, SnapshotSummary } from './types';

/** Every route the console calls; each is in the spec or documented in docs/ (see docs/console.md). */
export const endpoints = {
  listConnections: () => apiData<Connection[]>('GET', '/connections'),
  registerConnection: (input: { name: string; db_type: string; connection_string: string }) => apiData<Connection>('POST', '/connections', input),
  introspect: (id: string) => apiData<SnapshotSummary>('POST', `/connections/${id}/introspect`),
  schemaDetails: (id: string, tableNames: string[]) =>
    apiData<ContextResult>('POST', `/connections/${id}/context/query`, { table_names: tableNames, query: '', max_chunks: 0 }),
  analyze: (id: string, sql: string) => api<AnalysisReport>('POST', `/connections/${id}/migrations/analyze`, { sql }),
  execute: (input: { approval_token: string; sql: string; connection_id: string }) =>
    apiData<{ request_id: string; status: string }>('POST', '/migrations/execute', input),
  request: (requestId: string) => api<MigrationRequest>('GET', `/migrations/requests/${requestId}`),
  history: (id: string) => apiData<MigrationRequest[]>('GET', `/connections/${id}/migrations/requests`),
  optimize: (id: string, sql: string, analyze: boolean) =>
    api<OptimizationResult>('POST', `/connections/${id}/queries/optimize${analyze ? '?analyze=true' : ''}`, { sql }),
  documents: (id: string) => apiData<DocumentInfo[]>('GET', `/connections/${id}/documents`),
  deleteDocument: (id: string, documentId: string) => apiData<{ id: string; deleted: boolean }>('DELETE', `/connections/${id}/documents/${documentId}`),
  openBatch: (id: string, files: { filename: string; size_bytes: number }[]) =>
    apiData<DocumentBatch>('POST', `/connections/${id}/documents/batches`, { files }),
  confirmBatch: (id: string, batchId: string) => apiData<DocumentBatch>('POST', `/connections/${id}/documents/batches/${batchId}/confirm`),
  batch: (id: string, batchId: string) => apiData<DocumentBatch>('GET', `/connections/${id}/documents/batches/${batchId}`),
};
