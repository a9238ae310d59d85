import { ApiKeyOwnerCache, RateLimitLeases, UserIdCache } from '@dbops/core/accounts';
import { memoPer } from '@dbops/core/util';
import type { Container } from './container';

/**
 * What the request path remembers between requests of one process (one Lambda instance, or the
 * local runtime): API key owners and JWT users for the authorizer, and the rate-limit leases. One per
 * container, so a test runtime starts with empty ones.
 */
export interface RequestCaches {
  apiKeys: ApiKeyOwnerCache;
  rateLimits: RateLimitLeases;
  users: UserIdCache;
}

export const requestCachesOf = memoPer<Container, RequestCaches>((c) => ({
  apiKeys: new ApiKeyOwnerCache(c.settings.authCacheTtlMs),
  rateLimits: new RateLimitLeases(c.settings.rateLimitLease),
  users: new UserIdCache(),
}));
