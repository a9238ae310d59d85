import { AppError } from '../errors/app-error';
import type { Caller, GuardrailLevel } from '../sql-execution/guardrail';

/**
 * What an API key may do, set by its owner at creation (docs/api-decisions.md). A key without a
 * policy has its owner's full rights, as the spec says; a policy only narrows them, so the
 * holder of the key (an agent) cannot choose a level above what its owner granted.
 */
export interface KeyPolicy {
  /** `agent`: the key may not run SQL as caller `human` (no guardrail). */
  max_caller: Caller;
  /** The loosest guardrail an agent request with this key may ask for. */
  max_guardrail: GuardrailLevel;
  /** Only reads: caller agent at strict on /execute, and no migration execution. */
  read_only: boolean;
  /** The connections the key may touch; null for all of the owner's. */
  connection_ids: string[] | null;
  /** Agents may call functions whose effects cannot be read (dynamic SQL, compiled languages) at strict and moderate. */
  allow_opaque_functions: boolean;
}

/** The owner's input: every field optional; an omitted one does not restrict. */
export type KeyPolicyInput = Partial<KeyPolicy>;

export function completeKeyPolicy(input: KeyPolicyInput): KeyPolicy {
  return {
    max_caller: input.max_caller ?? 'human',
    max_guardrail: input.max_guardrail ?? 'permissive',
    read_only: input.read_only ?? false,
    connection_ids: input.connection_ids ? [...new Set(input.connection_ids.map((id) => id.toLowerCase()))] : null,
    allow_opaque_functions: input.allow_opaque_functions ?? false,
  };
}

const LEVEL_RANK: Record<GuardrailLevel, number> = { strict: 0, moderate: 1, permissive: 2 };

const refuse = (message: string, details: Record<string, unknown>): AppError =>
  new AppError('GUARDRAIL_VIOLATION', `Refused by the API key's policy: ${message}.`, { details: { key_policy: true, ...details } });

/** The ceiling a request with this policy runs under: read-only keys are strict agents. */
export function policyCeiling(policy: KeyPolicy): { caller: Caller; guardrail: GuardrailLevel } {
  if (policy.read_only) return { caller: 'agent', guardrail: 'strict' };
  return { caller: policy.max_caller, guardrail: policy.max_guardrail };
}

/**
 * The caller and guardrail a POST /execute request runs with under `policy`. An omitted
 * `caller` becomes the key's ceiling when the key is agent-only (the spec's default, human,
 * would be refused); an explicit request above the ceiling is refused with GUARDRAIL_VIOLATION.
 */
export function executeUnderPolicy(
  policy: KeyPolicy | null,
  asked: { caller: Caller | undefined; guardrail: GuardrailLevel },
): { caller: Caller; guardrail: GuardrailLevel; allowOpaque: boolean } {
  if (!policy) return { caller: asked.caller ?? 'human', guardrail: asked.guardrail, allowOpaque: false };
  const ceiling = policyCeiling(policy);
  const caller = asked.caller ?? ceiling.caller;
  if (caller === 'human' && ceiling.caller === 'agent') {
    throw refuse(`this key may only run SQL as caller "agent"${policy.read_only ? ' at guardrail "strict" (read-only key)' : ''}`, {
      caller,
      max_caller: ceiling.caller,
      read_only: policy.read_only,
    });
  }
  if (caller === 'agent' && LEVEL_RANK[asked.guardrail] > LEVEL_RANK[ceiling.guardrail]) {
    throw refuse(`guardrail "${asked.guardrail}" is above the key's maximum "${ceiling.guardrail}"`, {
      guardrail: asked.guardrail,
      max_guardrail: ceiling.guardrail,
      read_only: policy.read_only,
    });
  }
  return { caller, guardrail: asked.guardrail, allowOpaque: policy.allow_opaque_functions };
}

/** Refuses a connection outside the key's list. */
export function enforceConnectionPolicy(policy: KeyPolicy | null, connectionId: string): void {
  if (!policy?.connection_ids) return;
  if (!policy.connection_ids.includes(connectionId.toLowerCase())) {
    throw refuse('this key may not use this connection', { connection_id: connectionId });
  }
}

/** Refuses, for a read-only key, a route that writes to the user's database. */
export function enforceReadOnlyPolicy(policy: KeyPolicy | null, what: string): void {
  if (policy?.read_only) throw refuse(`this key is read-only and may not ${what}`, { read_only: true });
}

/** A stored policy (jsonb), tolerant of fields added later. */
export function storedKeyPolicy(value: unknown): KeyPolicy | null {
  if (!value || typeof value !== 'object') return null;
  return completeKeyPolicy(value as KeyPolicyInput);
}
