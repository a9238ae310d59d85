import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestCli, project } from '../support/cli';

const ACTION_SCRIPT = fileURLToPath(new URL('../../action/run.mjs', import.meta.url));

/** What the action's script sent to the GitHub API; `refuse` answers 403 as to a fork's token. */
interface ApiLog {
  requests: { method: string; url: string; body: string; auth: string | undefined }[];
  comments: { id: number; body: string }[];
  refuse: boolean;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let b = '';
    req.on('data', (c) => (b += c));
    req.on('end', () => resolve(b));
  });

describe('the GitHub Action script on a sample repository (real git, real CLI process, local stand-in for the GitHub API)', () => {
  let cli: Awaited<ReturnType<typeof buildTestCli>>;
  let p: ReturnType<typeof project>;
  let server: Server;
  let apiUrl: string;
  const api: ApiLog = { requests: [], comments: [], refuse: false };
  let work: string;

  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      stdio: 'pipe',
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' },
    });

  const runAction = (env: Record<string, string>): Promise<{ code: number; stdout: string }> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [ACTION_SCRIPT], {
        cwd: work,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: p.dir,
          DBOPS_CLI: `${process.execPath} ${cli.entry}`,
          GITHUB_ACTIONS: 'true',
          GITHUB_BASE_REF: 'main',
          GITHUB_REPOSITORY: 'acme/shop',
          GITHUB_API_URL: apiUrl,
          GITHUB_EVENT_PATH: path.join(p.dir, 'event.json'),
          GITHUB_STEP_SUMMARY: path.join(p.dir, 'summary.md'),
          GITHUB_OUTPUT: path.join(p.dir, 'output.txt'),
          GITHUB_TOKEN_FOR_COMMENT: 'ghs_test',
          INPUT_MODE: 'lint',
          INPUT_PATHS: 'migrations',
          INPUT_FAIL_ON: 'error',
          INPUT_COMMENT: 'true',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stdout += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout }));
    });

  beforeAll(async () => {
    cli = await buildTestCli();
    p = project({ 'event.json': JSON.stringify({ pull_request: { number: 7 } }), 'summary.md': '', 'output.txt': '' });
    server = createServer(async (req, res) => {
      const body = await readBody(req);
      api.requests.push({ method: req.method!, url: req.url!, body, auth: req.headers.authorization });
      if (api.refuse && req.method !== 'GET') {
        res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Resource not accessible by integration"}');
        return;
      }
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(api.comments));
      } else if (req.method === 'POST') {
        const c = { id: api.comments.length + 1, body: JSON.parse(body).body };
        api.comments.push(c);
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(c));
      } else {
        const id = Number(req.url!.split('/').pop());
        api.comments.find((c) => c.id === id)!.body = JSON.parse(body).body;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // origin (bare) with main holding one migration; the pull request's branch adds two.
    const origin = path.join(p.dir, 'origin.git');
    git(p.dir, 'init', '-q', '--bare', '-b', 'main', origin);
    work = path.join(p.dir, 'work');
    git(p.dir, 'clone', '-q', origin, work);
    mkdirSync(path.join(work, 'migrations'));
    writeFileSync(path.join(work, 'migrations/001_init.sql'), 'DROP TABLE old_stuff;\n');
    git(work, 'add', '.');
    git(work, 'commit', '-qm', 'init');
    git(work, 'push', '-q', 'origin', 'HEAD:main');
    git(work, 'checkout', '-q', '-b', 'feature');
    writeFileSync(
      path.join(work, 'migrations/002_link.sql'),
      "SET lock_timeout = '1s';\nSET statement_timeout = '5s';\nALTER TABLE orders ADD COLUMN account_id bigint REFERENCES account (id);\n",
    );
    git(work, 'add', '.');
    git(work, 'commit', '-qm', 'link orders');
    // As after actions/checkout: only the pull request's commit, no origin/main ref.
    git(work, 'update-ref', '-d', 'refs/remotes/origin/main');
  }, 120_000);

  afterAll(async () => {
    cli?.remove();
    await new Promise((r) => server?.close(r));
    p?.remove();
  });

  it('lints only the changed migrations, annotates, writes the summary and the output, and comments on the pull request', async () => {
    const r = await runAction({});
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^::error file=migrations\/002_link\.sql,line=3,endLine=3,col=1,title=dbops adding-foreign-key-constraint::/m);
    // 001 drops a table, but it is not part of the pull request.
    expect(r.stdout).not.toContain('001_init.sql');
    expect(readFileSync(path.join(p.dir, 'summary.md'), 'utf8')).toContain('<!-- dbops-report -->\n### dbops lint');
    expect(readFileSync(path.join(p.dir, 'output.txt'), 'utf8')).toBe('exit-code=1\n');
    const posts = api.requests.filter((q) => q.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ url: '/repos/acme/shop/issues/7/comments', auth: 'Bearer ghs_test' });
    expect(api.comments[0]!.body).toContain('**adding-foreign-key-constraint** (line 3)');
  });

  it('updates its own comment on the next push instead of adding another, and clears it once the pull request is clean', async () => {
    writeFileSync(
      path.join(work, 'migrations/002_link.sql'),
      "SET lock_timeout = '1s';\nSET statement_timeout = '5s';\nALTER TABLE orders ADD COLUMN IF NOT EXISTS account_id bigint;\n",
    );
    git(work, 'commit', '-qam', 'no inline foreign key');
    const before = api.requests.length;
    const r = await runAction({});
    expect(r.code, r.stdout).toBe(0);
    const sent = api.requests.slice(before).filter((q) => q.method !== 'GET');
    expect(sent.map((q) => `${q.method} ${q.url}`)).toEqual(['PATCH /repos/acme/shop/issues/comments/1']);
    expect(api.comments).toHaveLength(1);
    expect(api.comments[0]!.body).toContain('No issues found');
  });

  it('does not fail the check when the token may not comment (a fork), and sends nothing without a token', async () => {
    writeFileSync(path.join(work, 'migrations/003_drop.sql'), 'DROP TABLE IF EXISTS legacy;\n');
    git(work, 'add', '.');
    git(work, 'commit', '-qm', 'drop legacy');
    api.refuse = true;
    api.comments.length = 0;
    const refused = await runAction({});
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('::notice title=dbops::No pull-request comment: the token may not write here (403)');
    api.refuse = false;
    const before = api.requests.length;
    const none = await runAction({ GITHUB_TOKEN_FOR_COMMENT: '' });
    expect(none.code).toBe(1);
    expect(api.requests.length).toBe(before);
    expect((await runAction({ INPUT_MODE: 'deploy' })).code).toBe(2);
  });
});
