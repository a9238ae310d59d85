import { handlerLoaders } from '../handlers/index';
import { registerHandlerLoaders } from '../runtime/handler-registry';

// The OpenAPI document reads every handler's request schemas.
registerHandlerLoaders(handlerLoaders);

export { handler } from '../handlers/openapi';
