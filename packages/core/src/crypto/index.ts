export { decryptEnvelope, encryptEnvelope } from './envelope';
export { type DataKey, type KeyProvider } from './key-provider';
export { LocalKeyFileProvider } from './local-key-file-provider';
