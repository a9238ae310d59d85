import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { completeKeyPolicy, enforceConnectionPolicy, enforceReadOnlyPolicy, executeUnderPolicy } from './key-policy';

const refused = (f: () => unknown): AppError => {
  try {
    f();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a refusal');
};

describe('key policy', () => {
  it('fills omitted fields with no restriction', () => {
    expect(completeKeyPolicy({})).toEqual({
      max_caller: 'human',
      max_guardrail: 'permissive',
      read_only: false,
      connection_ids: null,
      allow_opaque_functions: false,
    });
  });

  it('keeps a key without a policy at the spec defaults', () => {
    expect(executeUnderPolicy(null, { caller: undefined, guardrail: 'strict' })).toEqual({ caller: 'human', guardrail: 'strict', allowOpaque: false });
    expect(executeUnderPolicy(null, { caller: 'agent', guardrail: 'permissive' }).guardrail).toBe('permissive');
  });

  it('refuses a caller or guardrail above the ceiling, and fills an omitted caller with it', () => {
    const p = completeKeyPolicy({ max_caller: 'agent', max_guardrail: 'moderate' });
    expect(refused(() => executeUnderPolicy(p, { caller: 'human', guardrail: 'strict' })).code).toBe('GUARDRAIL_VIOLATION');
    expect(refused(() => executeUnderPolicy(p, { caller: 'agent', guardrail: 'permissive' })).details).toMatchObject({ max_guardrail: 'moderate' });
    expect(executeUnderPolicy(p, { caller: undefined, guardrail: 'moderate' })).toEqual({ caller: 'agent', guardrail: 'moderate', allowOpaque: false });
  });

  it('makes read-only keys strict agents that cannot execute migrations', () => {
    const p = completeKeyPolicy({ read_only: true });
    expect(refused(() => executeUnderPolicy(p, { caller: 'human', guardrail: 'strict' })).code).toBe('GUARDRAIL_VIOLATION');
    expect(refused(() => executeUnderPolicy(p, { caller: 'agent', guardrail: 'moderate' })).code).toBe('GUARDRAIL_VIOLATION');
    expect(executeUnderPolicy(p, { caller: undefined, guardrail: 'strict' }).caller).toBe('agent');
    expect(refused(() => enforceReadOnlyPolicy(p, 'execute migrations')).message).toContain('read-only');
  });

  it('limits connections, case-insensitively', () => {
    const id = '6F9619FF-8B86-4011-B42D-00C04FC964FF';
    const p = completeKeyPolicy({ connection_ids: [id] });
    expect(() => enforceConnectionPolicy(p, id.toLowerCase())).not.toThrow();
    expect(refused(() => enforceConnectionPolicy(p, '00000000-0000-4000-8000-000000000000')).code).toBe('GUARDRAIL_VIOLATION');
    expect(() => enforceConnectionPolicy(null, 'anything')).not.toThrow();
  });
});
