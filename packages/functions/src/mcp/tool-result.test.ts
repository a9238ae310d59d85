import { describe, expect, it } from 'vitest';
import { toToolResult } from './tool-result';

const summarize = (data: unknown) => `ok ${JSON.stringify(data)}`;

describe('toToolResult', () => {
  it('unwraps the envelope and appends the credits', () => {
    const r = toToolResult({ status: 200, body: { success: true, data: { a: 1 }, error: null }, creditsRemaining: '9.99' }, summarize);
    expect(r.isError).toBeUndefined();
    expect(r.content[0]!.text).toBe('ok {"a":1} Credits remaining: 9.99.');
    expect(JSON.parse(r.content[1]!.text)).toEqual({ a: 1 });
  });

  it('reports envelope errors, 402 and 422 bodies as tool errors', () => {
    const conflict = toToolResult(
      { status: 409, body: { success: false, data: null, error: { code: 'PROVISION_LIMIT_REACHED', message: 'full' } } },
      summarize,
    );
    expect(conflict).toMatchObject({ isError: true });
    expect(conflict.content[0]!.text).toBe('Failed (HTTP 409). PROVISION_LIMIT_REACHED: full');
    const paid = toToolResult({ status: 402, body: { detail: 'Insufficient credits' } }, summarize);
    expect(paid.content[0]!.text).toContain('Insufficient credits');
    const invalid = toToolResult({ status: 422, body: { detail: [{ loc: ['body', 'name'], msg: 'Too small' }] } }, summarize);
    expect(invalid.content[0]!.text).toContain('body.name Too small');
  });

  it('treats success:false with 200 (a failed text-to-SQL run) as an error', () => {
    const r = toToolResult(
      { status: 200, body: { success: false, data: { markdown_output: 'x' }, error: { code: 'EXECUTION_FAILED', message: 'boom' } } },
      summarize,
    );
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.content[1]!.text).error.code).toBe('EXECUTION_FAILED');
  });
});
