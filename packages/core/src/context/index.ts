export { type ContextQueryResult, queryContext } from './context-query';
export { findRelevantDocumentChunks } from './document-context';
