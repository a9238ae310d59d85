export { type ContextQueryResult, queryContext } from './context-query';
