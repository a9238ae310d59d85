/**
 * Generated business text and PDFs for the document benches (bench/documents.ts,
 * bench/document-batches.ts): deterministic, written for this repository, cached in the temp dir.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { MAX_FILE_BYTES } from '../packages/core/src/documents/limits';

let seed = 42;
/** Restarts the generator (each bench file starts from the same text). */
export const reseed = (value = 42): void => {
  seed = value;
};
// A 31-bit LCG in integer arithmetic (a plain multiply overflows 2^53 and cycles after ~10,000 draws).
export const rand = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
export const WORDS = (
  'order customer invoice payment refund shipment warehouse ledger account balance revenue audit policy approval ' +
  'discount subscription renewal churn cohort region product catalog inventory supplier contract tax report month ' +
  'quarter close export import reconcile batch nightly job retention privacy consent email address phone status'
).split(' ');
export const TABLES = ['orders', 'customers', 'invoices', 'payments', 'refunds', 'shipments', 'ledger_entries', 'products', 'suppliers', 'subscriptions'];
export const sentence = (): string => {
  const n = 8 + Math.floor(rand() * 10);
  const words = Array.from({ length: n }, () => (rand() < 0.06 ? TABLES[Math.floor(rand() * TABLES.length)]! : WORDS[Math.floor(rand() * WORDS.length)]!));
  return `${words.join(' ')}.`;
};
export const paragraph = (): string => Array.from({ length: 3 + Math.floor(rand() * 4) }, sentence).join(' ');

export async function drawTextPages(doc: PDFDocument, pages: number): Promise<void> {
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage();
    let y = 780;
    while (y > 40) {
      const text = paragraph();
      // ~95 characters per line, a gap between paragraphs.
      for (let i = 0; i < text.length && y > 40; i += 95) {
        page.drawText(text.slice(i, i + 95), { x: 40, y, size: 9, font });
        y -= 11;
      }
      y -= 8;
    }
  }
}

export async function pdfOfPages(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  await drawTextPages(doc, pages);
  return doc.save();
}

/** Generated once and kept in the temp dir: pdf-lib needs a while for ~3,350 pages. */
export async function cachedPdf(name: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const cache = path.join(tmpdir(), name);
  try {
    return new Uint8Array(await readFile(cache));
  } catch {
    const pdf = await make();
    await writeFile(cache, pdf);
    return pdf;
  }
}

export async function textPdf(): Promise<Uint8Array> {
  return cachedPdf('dbops-bench-10mb-text-v2.pdf', async () => {
    const probe = await pdfOfPages(20);
    return pdfOfPages(Math.floor((20 * (MAX_FILE_BYTES * 0.985)) / probe.length));
  });
}
