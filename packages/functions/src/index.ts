export * from './routes';
export * from './http/define-handler';
export * from './http/responses';
export * from './http/auth-context';
export * from './runtime/container';
