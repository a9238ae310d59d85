import type { SecretStore } from '../../secrets/secret-store';
import { APPROVAL_KEY_SECRET } from './approval-token';

/**
 * The HMAC key that signs and verifies approval tokens: analysis issues with it, execution
 * verifies with it, so both must read the very same secret (created on first use).
 */
export const approvalSigningKey = (secrets: SecretStore): Promise<string> => secrets.getOrCreateRandom(APPROVAL_KEY_SECRET);
