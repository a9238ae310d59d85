export { queryContext } from './context-query';
