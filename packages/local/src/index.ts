export * from './runtime';
export * from './local-issuer';
export * from './gateway/emulator';
