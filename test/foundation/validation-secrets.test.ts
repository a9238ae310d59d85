import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

// A 422 echoes the request's `input`; it must never echo what the caller sent as a secret.
const PASSWORD = 'Pl4nted-Secret-9137';
const URL_WITH_PASSWORD = `postgresql://app:${PASSWORD}@db.example.com:5432/shop`;

describe('validation errors never echo a secret', () => {
  let t: TestRuntime;
  let jwt: string;

  beforeAll(async () => {
    t = await startTestRuntime();
    jwt = await t.jwt('secret-keeper');
  });
  afterAll(() => t.close());

  const cases: Array<[string, string, unknown]> = [
    ['a registration with name missing', 'POST /connections', { db_type: 'postgresql', connection_string: URL_WITH_PASSWORD }],
    ['a registration sent as an array', 'POST /connections', [{ name: 'x', db_type: 'postgresql', connection_string: URL_WITH_PASSWORD }]],
    ['a wrong db_type beside the string', 'POST /connections', { name: 'x', db_type: 'oracle', connection_string: URL_WITH_PASSWORD }],
    ['a password under another name', 'POST /connections', { name: '', db_type: 'postgresql', connection_string: 'x', password: PASSWORD }],
    ['a connection string in an unexpected field', 'PATCH /connections/00000000-0000-4000-8000-000000000000', { name: 7, note: URL_WITH_PASSWORD }],
    [
      'an approval token and SQL in a bad execute body',
      'POST /migrations/execute',
      { connection_id: 'nope', sql: 'SELECT 1', approval_token: `eyJhbGciOi.${PASSWORD}.sig` },
    ],
  ];

  it.each(cases)('%s', async (_, route, body) => {
    const [method, path] = route.split(' ') as [string, string];
    const res = await t.request(method, path, { jwt, body });
    expect(res.status).toBe(422);
    expect(Array.isArray(res.body.detail)).toBe(true);
    expect(res.text).not.toContain(PASSWORD);
  });

  it('does not echo a connection string from malformed JSON through the parser message', async () => {
    const res = await t.request('POST', '/connections', {
      jwt,
      body: `{"name": "x", "connection_string": "${URL_WITH_PASSWORD}", oops}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].type).toBe('json_invalid');
    expect(res.text).not.toContain(PASSWORD);
  });

  it('still echoes what is not secret, so the caller can fix the request', async () => {
    const res = await t.request('POST', '/connections', { jwt, body: { name: 'x', db_type: 'oracle', connection_string: URL_WITH_PASSWORD } });
    const issue = res.body.detail.find((d: { loc: string[] }) => d.loc.join('.') === 'body.db_type');
    expect(issue.input).toBe('oracle');
    expect(issue.msg).toMatch(/^Input should be/);
  });

  it('masks the password inside a connection string wherever it is echoed', async () => {
    const res = await t.request('POST', '/connections', { jwt, body: [URL_WITH_PASSWORD] });
    expect(res.status).toBe(422);
    expect(res.text).toContain('postgresql://app:***@db.example.com:5432/shop');
    expect(res.text).not.toContain(PASSWORD);
  });
});
