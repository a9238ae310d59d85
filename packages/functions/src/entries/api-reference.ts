import { handlerLoaders } from '../handlers/index';
import { registerHandlerLoaders } from '../runtime/handler-registry';

// The reference page is rendered from the OpenAPI document, which reads every handler's schemas.
registerHandlerLoaders(handlerLoaders);

export { handler } from '../handlers/api-reference';
