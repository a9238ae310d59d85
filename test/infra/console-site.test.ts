import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** infra/console.ts against a recording stand-in for `sst.aws.StaticSite`. */
const ROOT = path.resolve(__dirname, '../..');
const sites: Array<{
  name: string;
  args: { path: string; build: { command: string; output: string }; environment: Record<string, unknown>; edge: { viewerResponse: { injection: string } } };
}> = [];

class FakeStaticSite {
  url = 'https://console.example.test';
  constructor(name: string, args: (typeof sites)[number]['args']) {
    sites.push({ name, args });
  }
}

beforeAll(async () => {
  (globalThis as Record<string, unknown>).sst = { aws: { StaticSite: FakeStaticSite } };
  // Outputs resolved at once: the injection is then a plain string to read.
  const resolved = (v: unknown) => ({ apply: (f: (x: unknown) => unknown) => f(v) });
  (globalThis as Record<string, unknown>).$util = { output: resolved, all: resolved };
  const { createConsole } = (await import(path.join(ROOT, 'infra/console.ts'))) as { createConsole(apiUrl: string, uploadOrigin: string): unknown };
  createConsole('https://api.example.test', 'https://uploads-bucket.s3.eu-west-1.amazonaws.com');
});

afterAll(() => {
  delete (globalThis as Record<string, unknown>).sst;
  delete (globalThis as Record<string, unknown>).$util;
});

describe('infra/console.ts', () => {
  it('builds packages/web with its own build script and points it at the stage API', () => {
    expect(sites).toHaveLength(1);
    const { args } = sites[0]!;
    expect(args.environment).toEqual({ VITE_DBOPS_API_URL: 'https://api.example.test' });
    const pkg = JSON.parse(readFileSync(path.join(ROOT, args.path, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(args.build.command).toBe('npm run build');
    expect(pkg.scripts.build).toMatch(/^vite build/);
    expect(existsSync(path.join(ROOT, args.path, 'index.html'))).toBe(true);
  });

  it('sends the local runtime security headers from CloudFront, letting the page call its API and send files to the upload bucket', () => {
    const code = sites[0]!.args.edge.viewerResponse.injection;
    expect(code).toContain('event.response.headers["content-security-policy"]');
    expect(code).toContain("connect-src 'self' https://api.example.test https://uploads-bucket.s3.eu-west-1.amazonaws.com;");
    expect(code).toContain('event.response.headers["x-content-type-options"] = { value: "nosniff" };');
  });

  it('is declared by the SST app, next to the API', () => {
    const config = readFileSync(path.join(ROOT, 'sst.config.ts'), 'utf8');
    expect(config).toMatch(/createConsole\(api\.url, uploadOrigin/);
  });
});
