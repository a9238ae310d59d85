import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleFiles } from './console-files';

let dir: string;
const decode = (body: string | undefined) => Buffer.from(body ?? '', 'base64').toString('utf8');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dbops-console-files-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>c</title>');
  await writeFile(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('console static files', () => {
  it('serves index.html uncached with the security headers, hashed assets for a year', () => {
    const serve = createConsoleFiles(dir);
    const index = serve('GET', '/')!;
    expect(decode(index.body)).toContain('<title>c</title>');
    expect(index.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
    expect(index.headers?.['content-security-policy']).toContain("script-src 'self'");
    const js = serve('GET', '/assets/index-abc.js')!;
    expect(js.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
  });

  it('lets the page call the origins it is given besides its own (the upload bucket in the cloud shape)', () => {
    const csp = createConsoleFiles(dir, ['http://127.0.0.1:9000'])('GET', '/')!.headers?.['content-security-policy'];
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:9000;");
    expect(createConsoleFiles(dir)('GET', '/')!.headers?.['content-security-policy']).toContain("connect-src 'self';");
  });

  it('falls back to index.html for app paths, not for missing files or other methods', () => {
    const serve = createConsoleFiles(dir);
    expect(decode(serve('GET', '/connections/x')?.body)).toContain('<title>c</title>');
    expect(serve('GET', '/assets/missing.js')).toBeUndefined();
    // Only files read at start can be served: a traversal path is just another app path.
    expect(decode(serve('GET', '/../../etc/passwd')?.body)).toContain('<title>c</title>');
    expect(serve('GET', '/../../etc/hosts.txt')).toBeUndefined();
    expect(serve('POST', '/')).toBeUndefined();
  });

  it('says how to build the console when dist/ is missing', () => {
    const serve = createConsoleFiles(path.join(dir, 'nope'));
    expect(serve('GET', '/')).toMatchObject({ statusCode: 503 });
    expect(serve('GET', '/x.js')).toBeUndefined();
  });
});
