export { LocalSecretStore, type SecretStore } from './secret-store';
