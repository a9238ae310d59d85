import type { HandlerName } from '../routes';
import type { ContractHandler } from '../http/define-handler';

/**
 * Lazy loaders for every handler module, keyed by the route table's handler names, so the
 * local runtime loads a heavy module (parser, PGlite sandbox) only when its route is called.
 */
export const handlerLoaders: Record<HandlerName, () => Promise<{ handler: ContractHandler }>> = {
  health: () => import('./health'),
  openapi: () => import('./openapi'),
  'api-reference': () => import('./api-reference'),
  'connections-create': () => import('./connections-create'),
  'connections-list': () => import('./connections-list'),
  'connections-get': () => import('./connections-get'),
  'connections-update': () => import('./connections-update'),
  'connections-delete': () => import('./connections-delete'),
  'connections-introspect': () => import('./connections-introspect'),
  'migrations-analyze': () => import('./migrations-analyze'),
  'migrations-execute': () => import('./migrations-execute'),
  'migrations-request-get': () => import('./migrations-request-get'),
  'migrations-request-list': () => import('./migrations-request-list'),
  'queries-optimize': () => import('./queries-optimize'),
  'queries-generate': () => import('./queries-generate'),
  'sql-execute': () => import('./sql-execute'),
  'documents-upload': () => import('./documents-upload'),
  'documents-batch-create': () => import('./documents-batch-create'),
  'documents-batch-confirm': () => import('./documents-batch-confirm'),
  'documents-batch-get': () => import('./documents-batch-get'),
  'documents-list': () => import('./documents-list'),
  'documents-delete': () => import('./documents-delete'),
  'context-query': () => import('./context-query'),
  'api-keys-create': () => import('./api-keys-create'),
  'api-keys-list': () => import('./api-keys-list'),
  'api-keys-revoke': () => import('./api-keys-revoke'),
  'billing-balance': () => import('./billing-balance'),
  'billing-checkout': () => import('./billing-checkout'),
  'billing-usage': () => import('./billing-usage'),
  'billing-payments': () => import('./billing-payments'),
  'billing-webhook': () => import('./billing-webhook'),
  'provision-create': () => import('./provision-create'),
  'provision-list': () => import('./provision-list'),
  'provision-delete': () => import('./provision-delete'),
  mcp: () => import('./mcp'),
};
