import type { ContractHandler } from '../http/define-handler';
import type { HandlerName } from '../routes';

/** Loads one route's handler module. */
export type HandlerLoader = () => Promise<{ handler: ContractHandler }>;
export type HandlerLoaders = Record<HandlerName, HandlerLoader>;

let registered: HandlerLoaders | undefined;

/**
 * A few handlers run other handlers (MCP tools) or read their schemas (the OpenAPI document).
 * They get the loaders from here rather than importing the handler index, which lists them:
 * the composition root (the local runtime, or the function's entry in `entries/`) registers
 * them, so imports keep running one way.
 */
export function registerHandlerLoaders(loaders: HandlerLoaders): void {
  registered = loaders;
}

export function handlerLoaders(): HandlerLoaders {
  if (!registered) throw new Error('handler loaders are not registered: start the process through its entry (packages/functions/src/entries/)');
  return registered;
}
