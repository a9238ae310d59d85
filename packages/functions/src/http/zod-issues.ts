import type { ValidationIssue } from '@dbops/core/errors';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

const typeNames: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_type', 'Input should be a valid integer'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
  array: ['list_type', 'Input should be a valid list'],
};

const quoteList = (values: readonly unknown[]): string => {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
};

const valueAt = (root: unknown, path: readonly PropertyKey[]): unknown => {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
};

/**
 * Maps one zod issue to the spec's `{loc, msg, type, input, ctx}` entry. Types and messages
 * follow the common Pydantic wording, which the spec's body shape comes from.
 */
export function toValidationIssue(issue: Issue, location: string, root: unknown): ValidationIssue {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const loc = [location, ...path];
  const input = valueAt(root, path);
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) {
        return { loc, msg: 'Field required', type: 'missing', input: path.length ? valueAt(root, path.slice(0, -1)) : null, ctx: {} };
      }
      const [type, msg] = typeNames[issue.expected] ?? [`${issue.expected}_type`, `Input should be a valid ${issue.expected}`];
      return { loc, msg, type, input, ctx: { expected: issue.expected } };
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        return { loc, msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`, type: 'string_too_short', input, ctx: { min_length: min } };
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return { loc, msg: `List should have at least ${min} item${min === 1 ? '' : 's'}`, type: 'too_short', input, ctx: { min_length: min } };
      }
      return issue.inclusive === false
        ? { loc, msg: `Input should be greater than ${min}`, type: 'greater_than', input, ctx: { gt: min } }
        : { loc, msg: `Input should be greater than or equal to ${min}`, type: 'greater_than_equal', input, ctx: { ge: min } };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') {
        return { loc, msg: `String should have at most ${max} character${max === 1 ? '' : 's'}`, type: 'string_too_long', input, ctx: { max_length: max } };
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return { loc, msg: `List should have at most ${max} item${max === 1 ? '' : 's'}`, type: 'too_long', input, ctx: { max_length: max } };
      }
      return issue.inclusive === false
        ? { loc, msg: `Input should be less than ${max}`, type: 'less_than', input, ctx: { lt: max } }
        : { loc, msg: `Input should be less than or equal to ${max}`, type: 'less_than_equal', input, ctx: { le: max } };
    }
    case 'invalid_value': {
      const expected = quoteList(issue.values);
      return { loc, msg: `Input should be ${expected}`, type: 'enum', input, ctx: { expected } };
    }
    case 'invalid_format': {
      if (issue.format === 'uuid' || issue.format === 'guid') {
        return { loc, msg: 'Input should be a valid UUID', type: 'uuid_parsing', input, ctx: {} };
      }
      return { loc, msg: `Input should be a valid ${issue.format}`, type: `${issue.format}_parsing`, input, ctx: { format: issue.format } };
    }
    case 'unrecognized_keys':
      return { loc, msg: `Extra inputs are not permitted: ${issue.keys.join(', ')}`, type: 'extra_forbidden', input, ctx: { keys: issue.keys } };
    case 'custom': {
      // A refinement may name its own type and context (e.g. too_many_statements), and keep a huge input out of the answer.
      const p = (issue.params ?? {}) as { type?: unknown; ctx?: unknown; echo?: unknown };
      const ctx = p.ctx !== null && typeof p.ctx === 'object' ? (p.ctx as Record<string, unknown>) : {};
      return { loc, msg: issue.message, type: typeof p.type === 'string' ? p.type : 'value_error', input: p.echo === false ? null : input, ctx };
    }
    default:
      return { loc, msg: issue.message, type: 'value_error', input, ctx: {} };
  }
}
