/**
 * Cold starts of every function as deployed, measured from the bundles (issue #31): the cloud
 * shape of `npm run start:cloud` (infra/local-cloud.ts bundles, packages/local/src/cloud runs
 * each in processes of its own), one function at a time so that no two cold starts share the
 * CPU. Per function: the process's own time from start to its bundle imported (Lambda's init),
 * the time from spawn to the first answer, and the resident set size after that answer.
 *
 *   npx tsx bench/cloud-cold-starts.ts            # state on a PostgreSQL + pgvector under a temp DBOPS_HOME
 *   DBOPS_DATABASE_URL=postgres://... npx tsx bench/cloud-cold-starts.ts
 *
 * Needs Debian's postgresql-15 with pgvector (scripts/install-pgvector.sh) unless
 * DBOPS_DATABASE_URL names a server with pgvector. Figures: docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { routes } from '@dbops/functions/routes';
import { startCloudRuntime, stateServerUnavailable } from '@dbops/local/cloud';
import { buildLocalFunctions } from '../infra/local-cloud';
import { PARSER_HANDLERS, PDF_HANDLERS } from '../infra/route-plan';

const root = path.resolve(import.meta.dirname, '..');
if (!process.env.DBOPS_DATABASE_URL) {
  const why = stateServerUnavailable();
  if (why) {
    console.log(`cloud cold-start bench not run: ${why}`);
    process.exit(0);
  }
}

const set = await buildLocalFunctions({ root, cacheDir: path.join(os.tmpdir(), 'dbops-cloud-bundles') });
const home = await mkdtemp(path.join(os.tmpdir(), 'dbops-bench-cloud-'));
const runtime = await startCloudRuntime({
  functions: set,
  port: 0,
  consoleDir: null,
  apiTimeoutScale: 4,
  env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent' },
  log: () => undefined,
});
const ZERO = '00000000-0000-4000-8000-000000000000';

try {
  const jwt = await runtime.issuer.sign('bench-user');
  const call = (method: string, p: string, headers: Record<string, string>, body?: string) =>
    fetch(`${runtime.baseUrl}${p}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body }) }).then(
      async (r) => ({ status: r.status, text: await r.text() }),
    );
  const created = await call('POST', '/api-keys', { authorization: `Bearer ${jwt}` }, JSON.stringify({ name: 'bench' }));
  const apiKey = (JSON.parse(created.text) as { data: { key: string } }).data.key;
  // Every instance started so far (api-keys-create, the jwt-only authorizer) is stopped: all start cold below.
  runtime.lambda.recycle();
  await new Promise((r) => setTimeout(r, 300));

  const seen = new Set<string>();
  for (const route of routes) {
    if (seen.has(route.handler)) continue;
    seen.add(route.handler);
    const p = route.path.replace('/api/v1', '').replace(/\{[^}]+\}/g, ZERO);
    const auth: Record<string, string> = route.auth === 'jwt' ? { authorization: `Bearer ${jwt}` } : route.auth === 'none' ? {} : { 'x-api-key': apiKey };
    await call(route.method, p, auth, route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}');
    // The authorizer of this request started cold the first time only; stop it so each API
    // function's own figure is not taken beside an authorizer's cold start next time.
    runtime.lambda.recycle();
    await new Promise((r) => setTimeout(r, 200));
  }
  // Measured even when the invocation fails (documents-ingest has no upload storage here: no S3 stand-in).
  await runtime.lambda.invoke('executor', { Records: [] }).catch(() => undefined);
  await runtime.lambda.invoke('documents-ingest', { Records: [] }).catch(() => undefined);

  const firstOf = new Map<string, (typeof runtime.lambda.history)[number]>();
  for (const s of runtime.lambda.history) if (!firstOf.has(s.function)) firstOf.set(s.function, s);
  const heavy = new Set<string>([...PARSER_HANDLERS, ...PDF_HANDLERS]);
  const rows = [...firstOf.values()]
    .map((s) => ({
      function: s.function,
      kind: heavy.has(s.function)
        ? 'parser/pdf'
        : s.function.startsWith('authorizer')
          ? 'authorizer'
          : ['executor', 'documents-ingest', 'deploy-migrate'].includes(s.function)
            ? 'queue/deploy'
            : 'light',
      initMs: s.initMs,
      firstAnswerMs: s.firstAnswerMs,
      rssMb: Math.round(s.rss / 1024 / 1024),
    }))
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.function.localeCompare(b.function));

  const load = execFileSync('uptime', { encoding: 'utf8' }).trim();
  console.log(`date: ${new Date().toISOString()}`);
  console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB; node ${process.version}`);
  console.log(`load: ${load}`);
  console.log(`bundles: ${set.functions.length}${set.buildMs > 0 ? `, built in ${(set.buildMs / 1000).toFixed(1)} s` : ' (cached)'}`);
  console.log('');
  console.log('| function | kind | init (ms) | spawn to first answer (ms) | RSS after first answer (MB) |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.function} | ${r.kind} | ${r.initMs} | ${r.firstAnswerMs ?? '-'} | ${r.rssMb} |`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  for (const kind of ['light', 'authorizer', 'parser/pdf', 'queue/deploy']) {
    const of = rows.filter((r) => r.kind === kind);
    if (of.length === 0) continue;
    console.log(
      `${kind}: ${of.length} functions, median init ${median(of.map((r) => r.initMs))} ms, median first answer ${median(of.map((r) => r.firstAnswerMs ?? 0))} ms, median RSS ${median(of.map((r) => r.rssMb))} MB, max RSS ${Math.max(...of.map((r) => r.rssMb))} MB`,
    );
  }
} finally {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
}
