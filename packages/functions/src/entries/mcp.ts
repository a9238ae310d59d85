import { handlerLoaders } from '../handlers/index';
import { registerHandlerLoaders } from '../runtime/handler-registry';

// The MCP function runs every tool through the other handler modules in-process.
registerHandlerLoaders(handlerLoaders);

export { handler } from '../handlers/mcp';
