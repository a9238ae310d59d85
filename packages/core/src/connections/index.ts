export { connectPg } from './connect-pg';
export { createConnection, deactivateConnection, getConnection, listConnections, updateConnection } from './connection-service';
export { type ConnectionView } from './connection-view';
export { DB_TYPES } from './db-types';
export { loadConnectionTarget } from './load-connection-target';
