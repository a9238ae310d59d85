export { type AuthContext } from './auth-context';
export { type ApiHandler } from './define-handler';
export { type ApiEvent } from './event';
export { type HttpResult } from './responses';
