import { handlerLoaders } from '../runtime/handler-registry';
import { routes } from '../routes';
import { buildOpenApiDocument, type OpenApiDocument } from './build-document';

let cached: Promise<OpenApiDocument> | undefined;

/** This service's OpenAPI document, built once per process from the route table and the handlers. */
export function serviceDocument(): Promise<OpenApiDocument> {
  cached ??= buildOpenApiDocument(routes, async (name) => (await handlerLoaders()[name as keyof ReturnType<typeof handlerLoaders>]()).handler.contract).catch(
    (error: unknown) => {
      cached = undefined;
      throw error;
    },
  );
  return cached;
}
