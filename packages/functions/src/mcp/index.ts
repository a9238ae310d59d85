export { createDbopsMcpServer } from './create-server';
export { resolveRoute, type RouteCaller } from './route-call';
