/**
 * What hostile PDFs cost the extraction path (issue #35): the decoded-size scan and the CPU
 * budget, measured on extractDocument with the extraction threads, as the upload handlers call it.
 *
 *   npx tsx bench/hostile-documents.ts
 *
 * Prints, per case: the answer (chunks, or the rejection's reason), wall time, the process's CPU
 * time and its peak RSS growth (sampled every 20 ms) over the RSS after the threads were warmed.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { loadSettings } from '../packages/core/src/config';
import { extractDocument } from '../packages/core/src/documents/extract-document';
import { HashingEmbedder } from '../packages/core/src/embeddings/hashing-embedder';
import { isAppError } from '../packages/core/src/errors/app-error';
import { makePdf } from '../test/support/documents';
import { deflateBombPdf, nestedFormBombPdf } from '../test/support/hostile-pdfs';

const MIB = 1024 * 1024;
const embedder = new HashingEmbedder();
const limits = loadSettings({}).documentLimits;
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function measure(name: string, bytes: Uint8Array, caseLimits = limits): Promise<void> {
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  const c0 = cpuMs();
  let answer: string;
  try {
    const meta = await extractDocument({ filename: `${name}.pdf`, bytes }, embedder, async () => undefined, { owner: name, limits: caseLimits });
    answer = `${meta.chunkCount} chunks`;
  } catch (error) {
    answer = isAppError(error) ? `422 ${String(error.details?.reason)}` : String(error);
  }
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `| ${name} | ${(bytes.length / 1024).toFixed(0)} KB | ${answer} | ${((performance.now() - t0) / 1000).toFixed(1)} s | ${((cpuMs() - c0) / 1000).toFixed(1)} s | ${((peak - rss0) / MIB).toFixed(0)} MiB |`,
  );
}

console.log(
  `${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load ${loadavg()[0]!.toFixed(1)} at start, ${new Date().toISOString()}`,
);
console.log('| Case | File | Answer | Wall | Process CPU | Peak RSS growth |');
console.log('|---|---|---|---|---|---|');
// Threads started and pdfjs loaded first, so the figures below are the files' own.
await measure('warm-up (2 pages)', await makePdf([['Orders ship within two days.'], ['Returns are logged.']]));
await measure('ordinary (2 pages)', await makePdf([['Invoices are sent monthly.'], ['Refunds go to the original card.']]));
await measure('deflate bomb, 1 GiB of content', await deflateBombPdf(1024 * MIB));
await measure('deflate bomb, 4 GiB of content', await deflateBombPdf(4096 * MIB));
await measure('nested forms, 10^8 text draws, CPU budget 10 s', nestedFormBombPdf(), { ...limits, cpuMs: 10_000 });
console.log(`load ${loadavg()[0]!.toFixed(1)} at end`);
