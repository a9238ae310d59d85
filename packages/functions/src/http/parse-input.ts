import { RequestValidationError, type ValidationIssue } from '@dbops/core/errors';
import type { z } from 'zod';
import { bodyBytes, type ApiEvent } from './event';
import { maskSecrets } from './mask-secrets';
import { findNulString, nulIssue } from './nul-strings';
import { toValidationIssue } from './zod-issues';

/** Validates `value` against `schema`, throwing the spec's validation error at `location`. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, location: string): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw new RequestValidationError(result.error.issues.map((i) => masked(toValidationIssue(i, location, value))));
  const nul = findNulString(result.data);
  if (nul) throw new RequestValidationError([masked(nulIssue(location, nul))]);
  return result.data;
}

/**
 * An issue whose `input` and `ctx` echo nothing secret. A missing field's `input` is null, not
 * absent: every entry carries all five keys of the spec's shape.
 */
const masked = (issue: ValidationIssue): ValidationIssue => ({
  ...issue,
  input: maskSecrets(issue.input ?? null),
  ctx: maskSecrets(issue.ctx) as ValidationIssue['ctx'],
});

/** The JSON body, or a validation error saying why it is not JSON. */
export function readJsonBody(event: ApiEvent): unknown {
  const bytes = bodyBytes(event);
  const text = bytes.toString('utf8');
  if (text.trim() === '') {
    const issue: ValidationIssue = { loc: ['body'], msg: 'Field required', type: 'missing', input: null, ctx: {} };
    throw new RequestValidationError([issue]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    const position = /position (\d+)/.exec(reason)?.[1];
    const issue: ValidationIssue = {
      loc: position === undefined ? ['body'] : ['body', Number(position)],
      msg: 'JSON decode error',
      type: 'json_invalid',
      input: {},
      // The parser's message quotes part of the text, which may hold a connection string.
      ctx: { error: reason },
    };
    throw new RequestValidationError([masked(issue)]);
  }
}
