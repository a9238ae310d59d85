export { type ApiKeySummary, type CreatedApiKey, createApiKey, findApiKeyOwner, listApiKeys, revokeApiKey } from './api-keys';
export { completeKeyPolicy, enforceConnectionPolicy, enforceReadOnlyPolicy, executeUnderPolicy, type KeyPolicy, storedKeyPolicy } from './key-policy';
export { consumeRateLimit } from './rate-limiter';
export { ensureUser } from './users';
