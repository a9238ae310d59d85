// The GitHub Action's script (action.yml): runs `dbops lint` or `dbops analyze` on the
// migrations a pull request changes, lets the CLI annotate and write the job summary, and
// comments the markdown report on the pull request when the token may. Plain Node 20, no
// dependencies: it runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const env = process.env;
const MARKER = '<!-- dbops-report -->';

const log = (line) => process.stdout.write(`${line}\n`);
const setOutput = (name, value) => {
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `${name}=${value}\n`);
};

/** The CLI command: DBOPS_CLI (e.g. `node path/to/dbops.mjs`, for tests and self-hosted runners) or the npm package. */
function cliCommand() {
  if (env.DBOPS_CLI) return env.DBOPS_CLI.split(' ').filter(Boolean);
  return ['npx', '--yes', `--package=@dbops/cli@${env.INPUT_VERSION || 'latest'}`, 'dbops'];
}

function git(args) {
  return spawnSync('git', args, { encoding: 'utf8' });
}

/** The ref to diff against: the input, else the pull request's base branch (fetched if missing). */
function baseRef() {
  if (env.INPUT_BASE_REF) return env.INPUT_BASE_REF;
  if (!env.GITHUB_BASE_REF) return '';
  const ref = `origin/${env.GITHUB_BASE_REF}`;
  if (git(['rev-parse', '--verify', '--quiet', ref]).status !== 0) {
    // actions/checkout fetches one commit by default: get the base branch's tip.
    git(['fetch', '--no-tags', '--depth=1', 'origin', `${env.GITHUB_BASE_REF}:refs/remotes/${ref}`]);
  }
  return ref;
}

function pullRequestNumber() {
  if (!env.GITHUB_EVENT_PATH || !existsSync(env.GITHUB_EVENT_PATH)) return null;
  try {
    const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
    return event.pull_request?.number ?? null;
  } catch {
    return null;
  }
}

/**
 * Creates or updates dbops's comment (`create` false: only updates one left by an earlier push);
 * a token that may not write (pull requests from forks) only leaves a notice.
 */
async function comment(body, create) {
  const token = env.GITHUB_TOKEN_FOR_COMMENT;
  const pr = pullRequestNumber();
  if (env.INPUT_COMMENT === 'false' || !token || !pr || !env.GITHUB_REPOSITORY) return 'skipped';
  const api = `${env.GITHUB_API_URL || 'https://api.github.com'}/repos/${env.GITHUB_REPOSITORY}/issues`;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json', 'user-agent': 'dbops-action' };
  try {
    const list = await fetch(`${api}/${pr}/comments?per_page=100`, { headers });
    const existing = list.ok ? (await list.json()).find((c) => typeof c.body === 'string' && c.body.includes(MARKER)) : undefined;
    if (!existing && !create) return 'skipped';
    const res = existing
      ? await fetch(`${api}/comments/${existing.id}`, { method: 'PATCH', headers, body: JSON.stringify({ body }) })
      : await fetch(`${api}/${pr}/comments`, { method: 'POST', headers, body: JSON.stringify({ body }) });
    if (res.ok) return existing ? 'updated' : 'created';
    log(`::notice title=dbops::No pull-request comment: the token may not write here (${res.status}); the annotations and the job summary carry the report.`);
    return `refused ${res.status}`;
  } catch (error) {
    log(`::notice title=dbops::No pull-request comment: ${error.message}`);
    return 'failed';
  }
}

async function main() {
  const mode = env.INPUT_MODE || 'lint';
  if (mode !== 'lint' && mode !== 'analyze') {
    log(`::error title=dbops::mode must be lint or analyze, not ${mode}`);
    return 2;
  }
  const paths = (env.INPUT_PATHS || 'migrations').split(/\s+/).filter(Boolean);
  const markdown = path.join(mkdtempSync(path.join(tmpdir(), 'dbops-action-')), 'report.md');
  const args = [mode, '--reporter', 'github', '--fail-on', env.INPUT_FAIL_ON || 'error', '--markdown-file', markdown];
  const base = baseRef();
  if (base) args.push('--git-diff', base);
  if (mode === 'analyze') {
    if (env.INPUT_CONNECTION) args.push('--connection', env.INPUT_CONNECTION);
    if (env.INPUT_BASE_URL) args.push('--base-url', env.INPUT_BASE_URL);
  }
  if (env.INPUT_ARGS) args.push(...env.INPUT_ARGS.split(/\s+/).filter(Boolean));
  args.push(...paths);
  const [cmd, ...pre] = cliCommand();
  log(`dbops ${args.join(' ')}`);
  const run = spawnSync(cmd, [...pre, ...args], { stdio: 'inherit', env: { ...env, GITHUB_ACTIONS: 'true' } });
  const code = run.status ?? 2;
  setOutput('exit-code', code);
  if (existsSync(markdown)) {
    const body = readFileSync(markdown, 'utf8');
    // A clean pull request gets no new comment, but an earlier one is updated to say so.
    log(`comment: ${await comment(body, !/No issues found/.test(body))}`);
  }
  return code;
}

process.exitCode = await main();
