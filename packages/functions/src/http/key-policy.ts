import { enforceConnectionPolicy, enforceReadOnlyPolicy, type KeyPolicy, storedKeyPolicy } from '@dbops/core/accounts';
import type { HandlerName } from '../routes';
import type { AuthContext } from './auth-context';

/**
 * What an MCP tool call may do when its key has no policy: an agent at strict. Whoever holds a
 * key cannot raise the level by asking; the key's owner grants more with a policy.
 */
export const MCP_DEFAULT_POLICY: KeyPolicy = {
  max_caller: 'agent',
  max_guardrail: 'strict',
  read_only: false,
  connection_ids: null,
  allow_opaque_functions: false,
};

/**
 * The policy a request runs under: its API key's; for MCP tool calls without one,
 * {@link MCP_DEFAULT_POLICY}; otherwise null (a JWT or a key without a policy: full rights).
 */
export function keyPolicyOf(auth: AuthContext | null | undefined): KeyPolicy | null {
  if (!auth?.keyPolicy) return auth?.via === 'mcp' ? MCP_DEFAULT_POLICY : null;
  try {
    return storedKeyPolicy(JSON.parse(auth.keyPolicy));
  } catch {
    // The authorizer wrote it; unreadable means tampered or corrupt: the narrowest policy.
    return { max_caller: 'agent', max_guardrail: 'strict', read_only: true, connection_ids: [], allow_opaque_functions: false };
  }
}

/** Routes that write to the user's database outside /execute's guardrail: refused to read-only keys. */
const WRITES_TARGET: Partial<Record<HandlerName, string>> = { 'migrations-execute': 'execute migrations' };

const connectionIdIn = (value: unknown): string | undefined => {
  const id = (value as { connection_id?: unknown } | null | undefined)?.connection_id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * The parts of a key's policy every route obeys: the connections it may touch (a
 * `connection_id` in the path or the body) and read-only. /execute's caller and guardrail
 * ceiling are applied by its handler.
 */
export function enforceKeyPolicyOnRoute(name: HandlerName, policy: KeyPolicy | null, params: unknown, body: unknown): void {
  if (!policy) return;
  for (const id of [connectionIdIn(params), connectionIdIn(body)]) if (id) enforceConnectionPolicy(policy, id);
  const writes = WRITES_TARGET[name];
  if (writes) enforceReadOnlyPolicy(policy, writes);
}
