/**
 * Upload slots end to end, through HTTP on the local runtime (on-disk PGlite state under a temp
 * DBOPS_HOME, the offline hashing embedder): open a batch, PUT every file to its slot, confirm,
 * poll until the batch is completed.
 *
 *   npx tsx bench/document-batches.ts --case pdf              # one dense text-only 10 MB PDF
 *   npx tsx bench/document-batches.ts --case batch            # 50 x 10 MB: text, Markdown, SQL, PDF
 *   npx tsx bench/document-batches.ts --case batch --files 8 --mb 2   # a smaller batch
 *
 * `pdf` also times extraction alone: pdfjs page by page in one thread (the former path) against
 * page ranges on the extraction threads (with chunking and embedding), no storage.
 * While a batch ingests, /health is timed every 250 ms: the request loop's responsiveness, over
 * the whole ingestion and, separately, over the probes that overlap the final transaction. Phases
 * come from the state store (staged_chunks per file: upload, all files staged, total) and from
 * the ingestion handler's own log lines ("document batch phase": staged, stored = the final
 * transaction, collected = deleting replaced generations' chunks afterwards), which the bench
 * reads from stderr (the runtime logs at info unless BENCH_LOG says otherwise).
 */
import { startLocalRuntime } from '@dbops/local';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadSettings } from '../packages/core/src/config';
import { extractDocument } from '../packages/core/src/documents/extract-document';
import { extractPdfText } from '../packages/core/src/documents/extract-pdf';
import { HashingEmbedder } from '../packages/core/src/embeddings/hashing-embedder';
import { paragraph, pdfOfPages, reseed, TABLES, textPdf } from './document-corpus';

const { values } = parseArgs({
  options: {
    case: { type: 'string', default: 'pdf' },
    files: { type: 'string', default: '50' },
    mb: { type: 'string', default: '10' },
    // `pdf` only: skip the extraction-only rounds and measure end to end through slots.
    'e2e-only': { type: 'boolean', default: false },
  },
});

const s2 = (ms: number): string => (ms / 1000).toFixed(2);
const progress = (what: string): void => void process.stderr.write(`[${new Date().toISOString()}] ${what}\n`);

interface BenchFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** Text up to `bytes` (just under): paragraphs of generated business prose. */
function textOf(bytes: number, wrap: (i: number, p: string) => string): Uint8Array {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const piece = `${wrap(i, paragraph())}\n\n`;
    if (size + piece.length > bytes) break;
    parts.push(piece);
    size += piece.length;
  }
  return new TextEncoder().encode(parts.join(''));
}

const markdown = (bytes: number): Uint8Array => textOf(bytes, (i, p) => (i % 12 === 0 ? `## Section ${i / 12}\n\n${p}` : p));
const plain = (bytes: number): Uint8Array => textOf(bytes, (_i, p) => p);
const sql = (bytes: number): Uint8Array =>
  textOf(bytes, (i, p) => `-- ${p.slice(0, 60)}\nINSERT INTO ${TABLES[i % TABLES.length]} (id, note) VALUES (${i}, '${p.slice(0, 40).replace(/'/g, "''")}');`);

/** The batch: 40 % text, 30 % Markdown, 20 % SQL, 10 % PDF (the text-only 10 MB PDF, or fewer pages). */
async function batchFiles(count: number, mb: number): Promise<BenchFile[]> {
  reseed();
  const bytes = Math.floor(mb * 1024 * 1024 * 0.98);
  // The dense text-only PDF of 10 MB, or as many of its kind of pages as fit in `mb`.
  const pdf = mb >= 10 ? await textPdf() : await pdfOfPages(Math.max(1, Math.round((3300 * mb) / 10)));
  const files: BenchFile[] = [];
  for (let i = 0; i < count; i++) {
    const k = i % 10;
    if (k < 4) files.push({ name: `notes-${i}.txt`, type: 'text/plain', bytes: plain(bytes) });
    else if (k < 7) files.push({ name: `handbook-${i}.md`, type: 'text/markdown', bytes: markdown(bytes) });
    else if (k < 9) files.push({ name: `seed-${i}.sql`, type: 'application/sql', bytes: sql(bytes) });
    else files.push({ name: `report-${i}.pdf`, type: 'application/pdf', bytes: pdf });
  }
  return files;
}

/** Process CPU time in ms, all threads (the extraction threads and PGlite included). */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function extractionOnly(): Promise<void> {
  const pdf = await textPdf();
  const embedder = new HashingEmbedder();
  progress('extraction: one thread, page by page');
  let t0 = performance.now();
  let c0 = cpuMs();
  const text = await extractPdfText('a.pdf', pdf);
  console.log(
    `| 10 MB text-only PDF (${(pdf.length / 1048576).toFixed(2)} MiB, ${(text.length / 1e6).toFixed(2)} M chars) | extraction only, one thread (former path) | ${s2(performance.now() - t0)} s | ${s2(cpuMs() - c0)} s |`,
  );
  // The first round starts the threads (each loads tsx and pdfjs); the second finds them warm.
  for (const round of ['cold threads', 'warm threads']) {
    progress(`extraction: page shares on the extraction threads, with chunking and embedding (${round})`);
    t0 = performance.now();
    c0 = cpuMs();
    let chunks = 0;
    await extractDocument(
      { filename: 'a.pdf', bytes: pdf },
      embedder,
      async (part) => {
        chunks += part.chunks.length;
      },
      { owner: 'bench', limits: loadSettings({}).documentLimits },
    );
    console.log(
      `| same | extraction + chunking + embedding on ${availableParallelism()} extraction threads, ${round} (${chunks} chunks) | ${s2(performance.now() - t0)} s | ${s2(cpuMs() - c0)} s |`,
    );
  }
}

/** The ingestion handler's phases as it logs them (ms), and when the final transaction ran. */
const phases: Record<string, number> = {};
const finalWindow = { from: Infinity, to: Infinity };
const stderrWrite = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  const line = String(chunk);
  if (line.includes('"document batch phase"')) {
    const entry = JSON.parse(line) as { phase: string; ms: number };
    phases[entry.phase] = entry.ms;
    if (entry.phase === 'staged') finalWindow.from = Date.now();
    if (entry.phase === 'stored') finalWindow.to = Date.now();
  }
  return (stderrWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stderr.write;

async function throughSlots(files: BenchFile[], label: string): Promise<void> {
  const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-slots-'));
  const runtime = await startLocalRuntime({
    port: 0,
    consoleDir: null,
    env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: process.env.BENCH_LOG ?? 'info' },
  });
  try {
    const jwt = await runtime.issuer.sign('bench');
    const auth = { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' };
    const call = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${runtime.baseUrl}${p}`, { method, headers: auth, ...(body ? { body: JSON.stringify(body) } : {}) });
      const json = (await res.json()) as { data: any };
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    // A managed database (the runtime's embedded PostgreSQL) is a real connection without setup.
    const provisioned = await call('POST', '/provision', { name: 'bench' });
    const conn = { id: provisioned.connection_id as string };
    const t0 = performance.now();
    const c0 = cpuMs();
    const batch = await call('POST', `/connections/${conn.id}/documents/batches`, {
      files: files.map((f) => ({ filename: f.name, size_bytes: f.bytes.length, content_type: f.type })),
    });
    for (const [i, f] of files.entries()) {
      const slot = batch.slots[i];
      const res = await fetch(slot.url, { method: slot.method, headers: slot.headers, body: f.bytes });
      if (res.status !== 200) throw new Error(`PUT ${f.name}: ${res.status} ${await res.text()}`);
    }
    const uploaded = performance.now() - t0;
    progress(`${label}: ${files.length} files uploaded in ${s2(uploaded)} s; confirming`);
    await call('POST', `/connections/${conn.id}/documents/batches/${batch.batch_id}/confirm`);

    // /health every 250 ms while it ingests, from a process of its own: a probe in this process
    // would share the runtime's event loop and not even be sent while that loop is held. Its
    // latency is what a client of the local service waits.
    const health: Array<{ at: number; ms: number }> = [];
    let staged = 0;
    let failedProbes = 0;
    const probeScript = `const url = process.argv[1];
      (async () => { for (;;) { const t = Date.now(); const ok = await fetch(url).then((r) => r.text().then(() => true), () => false);
        process.stdout.write(ok ? t + ' ' + (Date.now() - t) + '\\n' : 'reset\\n'); await new Promise((r) => setTimeout(r, 250)); } })();`;
    const probe = spawn(process.execPath, ['-e', probeScript, `${runtime.baseUrl}/health`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let probeOut = '';
    probe.stdout.on('data', (d: Buffer) => {
      probeOut += d.toString();
      const lines = probeOut.split('\n');
      probeOut = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'reset') failedProbes++;
        else {
          const [at, ms] = line.split(' ').map(Number);
          health.push({ at: at!, ms: ms! });
        }
      }
    });
    let status: any;
    let pollResets = 0;
    for (;;) {
      const files = await runtime.container.store.query<{ n: number; total: number }>(
        'SELECT count(*) FILTER (WHERE staged_chunks IS NOT NULL)::int AS n, count(*)::int AS total FROM document_batch_files WHERE batch_id = $1',
        [batch.batch_id],
      );
      if (!staged && files.rows[0]!.n === files.rows[0]!.total) {
        staged = performance.now() - t0;
        progress(`${label}: all files staged at ${s2(staged)} s`);
      }
      // A poll still waiting when Node's request timeout (300 s) passes is reset: count it and poll again.
      const polled = await call('GET', `/connections/${conn.id}/documents/batches/${batch.batch_id}`).catch((error: unknown) => {
        if (!(error instanceof TypeError)) throw error;
        pollResets++;
        return undefined;
      });
      if (!polled) continue;
      status = polled;
      if (status.status === 'completed' || status.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const total = performance.now() - t0;
    const cpu = cpuMs() - c0;
    probe.kill();
    const stats = (xs: number[]): string => {
      const sorted = [...xs].sort((a, b) => a - b);
      const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
      return `p50 ${q(0.5).toFixed(0)} ms, p95 ${q(0.95).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms (${xs.length} probes)`;
    };
    // Probes that were waiting at some point of the final transaction.
    const during = health.filter((h) => h.at <= finalWindow.to && h.at + h.ms >= finalWindow.from).map((h) => h.ms);
    const mib = files.reduce((s, f) => s + f.bytes.length, 0) / 1048576;
    const phase = (p: string) => (phases[p] === undefined ? '?' : s2(phases[p]));
    console.log(
      `| ${label}: ${files.length} files, ${mib.toFixed(1)} MiB | ${status.status}, ${status.result?.total_chunks ?? 0} chunks | upload ${s2(uploaded)} s | staged ${phase('staged')} s | final transaction ${phase('stored')} s | collected ${phase('collected')} s | total ${s2(total)} s (process CPU ${s2(cpu)} s) | /health ${stats(health.map((h) => h.ms))}; ${failedProbes} reset; ${pollResets} status polls reset | during the final transaction: /health ${stats(during)} |`,
    );
    if (status.status === 'failed') console.log(JSON.stringify(status.rejections));
  } finally {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
}

console.log(
  `machine: ${cpus()[0]?.model} x ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${new Date().toISOString()}`,
);
if (values.case === 'pdf') {
  if (!values['e2e-only']) await extractionOnly();
  await throughSlots([{ name: 'dense.pdf', type: 'application/pdf', bytes: await textPdf() }], 'one 10 MB text-only PDF');
} else {
  const files = await batchFiles(Number(values.files), Number(values.mb));
  await throughSlots(files, `batch of ${files.length} x ${values.mb} MB`);
}
console.log(
  `load after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
// The managed database (embedded PostgreSQL) and pdfjs keep handles open; the figures are out.
process.exit(0);
