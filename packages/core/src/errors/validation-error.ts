/**
 * One entry of the spec's validation body `{detail: [{loc, msg, type, input, ctx}]}`.
 * The shape follows the spec's section 7 exactly; `ctx` is always an object.
 */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
  input: unknown;
  ctx: Record<string, unknown>;
}

/** A request that does not match its schema; answered with HTTP 422 and the bare `{detail}` body. */
export class RequestValidationError extends Error {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'RequestValidationError';
    this.issues = issues;
  }
}
