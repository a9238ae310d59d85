export { type ApiKeySummary, type CreatedApiKey, createApiKey, findApiKeyOwner, listApiKeys, revokeApiKey } from './api-keys';
export { completeKeyPolicy, enforceConnectionPolicy, enforceReadOnlyPolicy, executeUnderPolicy, type KeyPolicy, storedKeyPolicy } from './key-policy';
export { type ApiKeyOwner, ApiKeyOwnerCache } from './api-key-cache';
export { RateLimitLeases } from './rate-limit-leases';
export { ensureUser } from './users';
export { UserIdCache } from './user-id-cache';
