import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliError, EXIT_CLEAN, EXIT_FINDINGS } from '../cli-error';
import { loadConfig } from '../config/cli-config';
import { parse, SERVICE_OPTIONS } from '../options';
import type { RunContext } from '../run-context';
import { readCredentials } from '../service/credentials';
import { apiBase } from '../service/service-client';
import { connectionId, DEFAULT_BASE_URL, serviceClient } from '../service/service-settings';

const USAGE = `Usage: dbops documents upload --connection <id> [--json] [--base-url <url>] <files...>

Uploads business documents (PDF, Markdown, plain text, SQL; up to 50 files of 10 MB) through
upload slots: asks the service for one slot per file, sends each file straight to its slot
(local storage, or S3 in the cloud), confirms the batch and waits until it is ingested.
Exit 0 when the batch is stored, 1 when the service refused files (each is named), 2 on
usage or connection errors.
`;

interface Slot {
  filename: string;
  method: 'PUT' | 'POST';
  url: string;
  headers: Record<string, string>;
  fields: Record<string, string>;
}

interface Rejection {
  filename: string;
  reason: string;
  message?: string;
}

interface Batch {
  batch_id: string;
  status: 'awaiting_upload' | 'queued' | 'ingesting' | 'completed' | 'failed';
  slots?: Slot[];
  result: { files_processed: number; total_chunks: number; documents: Array<{ filename: string; chunk_count: number; replaced: boolean }> } | null;
  error: { code: string; message: string } | null;
  rejections: Rejection[];
}

interface Answer {
  status: number;
  data: Batch | null;
  error: { code: string; message: string; details?: { rejections?: Rejection[]; filename?: string; reason?: string } } | null;
}

/** Files sent to their slots at once: enough to keep a link busy, few enough for 50 x 10 MB in memory. */
const PARALLEL_UPLOADS = 4;
const POLL_MS = 1000;

/** The same service resolution as every other command (serviceClient validates it first). */
function service(flags: { 'base-url'?: string }, ctx: RunContext): { base: string; apiKey: string } {
  const cfg = loadConfig(ctx.cwd);
  serviceClient(flags, cfg, ctx.env);
  const creds = readCredentials(ctx.env);
  const apiKey = ctx.env.DBOPS_API_KEY || creds!.api_key;
  return { base: apiBase(flags['base-url'] ?? ctx.env.DBOPS_BASE_URL ?? cfg.baseUrl ?? creds?.base_url ?? DEFAULT_BASE_URL), apiKey };
}

async function call(svc: { base: string; apiKey: string }, method: string, p: string, body?: unknown): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${svc.base}${p}`, {
      method,
      headers: { 'x-api-key': svc.apiKey, 'user-agent': 'dbops-cli', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(300_000),
    });
  } catch (error) {
    throw new CliError(
      `cannot reach the dbops service at ${svc.base} (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message})`,
      'connection',
    );
  }
  const json = (await res.json().catch(() => null)) as { data?: Batch; error?: Answer['error'] } | null;
  if (!json) throw new CliError(`${method} ${p} answered ${res.status} without a JSON body`, 'service');
  return { status: res.status, data: json.data ?? null, error: json.error ?? null };
}

/**
 * Sends one file as its slot says: a PUT with the slot's headers, or an S3 presigned POST form.
 * Resolves with the refusal when the service or S3 refuses the bytes.
 */
async function send(slot: Slot, bytes: Uint8Array): Promise<Rejection | null> {
  let res: Response;
  if (slot.method === 'PUT') {
    res = await fetch(slot.url, { method: 'PUT', headers: slot.headers, body: bytes });
  } else {
    const form = new FormData();
    for (const [k, v] of Object.entries(slot.fields)) form.append(k, v);
    form.append('file', new Blob([bytes], { type: slot.fields['Content-Type'] ?? 'application/octet-stream' }), slot.filename);
    res = await fetch(slot.url, { method: 'POST', headers: slot.headers, body: form });
  }
  const text = await res.text();
  if (res.status < 300) return null;
  try {
    const e = (JSON.parse(text) as Answer).error;
    if (e) return { filename: slot.filename, reason: e.details?.reason ?? e.code, message: e.message };
  } catch {
    // S3 answers XML: keep its text
  }
  return { filename: slot.filename, reason: `http_${res.status}`, message: text.slice(0, 300) };
}

const describeRejections = (rejections: readonly Rejection[]): string =>
  rejections.map((r) => `  ${r.filename}: ${r.reason}${r.message ? ` (${r.message})` : ''}`).join('\n');

export async function documentsCommand(argv: string[], ctx: RunContext): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(rest, {
    connection: SERVICE_OPTIONS.connection,
    'base-url': SERVICE_OPTIONS['base-url'],
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const);
  if (sub === undefined || sub === '--help' || sub === '-h' || values.help) {
    ctx.stdout(USAGE);
    return EXIT_CLEAN;
  }
  if (sub !== 'upload') throw new CliError(`unknown documents command ${sub}\n\n${USAGE}`);
  if (positionals.length === 0) throw new CliError(`no files given\n\n${USAGE}`);
  const conn = connectionId(values.connection, loadConfig(ctx.cwd), ctx.env);
  const svc = service(values, ctx);

  const files = await Promise.all(
    positionals.map(async (p) => {
      const full = path.resolve(ctx.cwd, p);
      const info = await stat(full).catch(() => undefined);
      if (!info?.isFile()) throw new CliError(`${p}: not a readable file`);
      return { path: full, filename: path.basename(full), size: info.size };
    }),
  );
  const base = `/connections/${encodeURIComponent(conn)}/documents/batches`;
  const opened = await call(svc, 'POST', base, { files: files.map((f) => ({ filename: f.filename, size_bytes: f.size })) });
  if (opened.status !== 201 || !opened.data) {
    const rejections = opened.error?.details?.rejections ?? [];
    if (rejections.length > 0) {
      ctx.stderr(`dbops: the service refused the batch; nothing was uploaded:\n${describeRejections(rejections)}\n`);
      return EXIT_FINDINGS;
    }
    throw new CliError(`POST ${base} failed with ${opened.status} ${opened.error?.code ?? ''}: ${opened.error?.message ?? ''}`, 'service');
  }
  const batch = opened.data;
  const slots = batch.slots ?? [];
  // Files are read when their turn comes, so a batch of 50 x 10 MB never sits in memory whole.
  let next = 0;
  const refused: Rejection[] = [];
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL_UPLOADS, files.length) }, async () => {
      while (next < files.length) {
        const i = next++;
        const refusal = await send(slots[i]!, new Uint8Array(await readFile(files[i]!.path)));
        if (refusal) refused.push(refusal);
        else if (!values.json) ctx.stderr(`uploaded ${files[i]!.filename}\n`);
      }
    }),
  );
  if (refused.length > 0) {
    // Not confirmed: the batch stores nothing, and its slots expire.
    ctx.stderr(`dbops: files were refused where they landed; nothing was stored:\n${describeRejections(refused)}\n`);
    return EXIT_FINDINGS;
  }
  const confirmed = await call(svc, 'POST', `${base}/${batch.batch_id}/confirm`);
  if (confirmed.status !== 202) throw new CliError(`confirming the batch failed with ${confirmed.status} ${confirmed.error?.message ?? ''}`, 'service');
  let state = confirmed.data!;
  while (state.status !== 'completed' && state.status !== 'failed') {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const polled = await call(svc, 'GET', `${base}/${batch.batch_id}`);
    if (polled.status !== 200 || !polled.data) throw new CliError(`polling the batch failed with ${polled.status}`, 'service');
    state = polled.data;
  }
  if (values.json) ctx.stdout(`${JSON.stringify(state, null, 2)}\n`);
  else if (state.status === 'completed' && state.result) {
    const docs = state.result.documents.map((d) => `  ${d.filename}: ${d.chunk_count} chunks${d.replaced ? ' (replaced)' : ''}`).join('\n');
    ctx.stdout(`batch ${state.batch_id}: ${state.result.files_processed} files, ${state.result.total_chunks} chunks\n${docs}\n`);
  } else ctx.stdout(`batch ${state.batch_id} failed; nothing was stored:\n${describeRejections(state.rejections)}\n`);
  return state.status === 'completed' ? EXIT_CLEAN : EXIT_FINDINGS;
}
