import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors/app-error';
import { prepareDocument } from './prepare-document';

async function pdfOf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage();
    let y = 750;
    for (const line of lines) {
      if (line === '') y -= 20;
      else page.drawText(line, { x: 50, y, size: 11, font });
      y -= 14;
    }
  }
  return doc.save();
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

async function rejection(p: Promise<unknown>): Promise<{ code: string; status: number; details: unknown; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return { code: e.code, status: e.status, details: e.details, message: e.message };
    throw e;
  }
  throw new Error('expected a rejection');
}

// Captured before the first PDF loads pdfjs, whose bundled core-js replaces some of them.
const natives = { push: Array.prototype.push, stringify: JSON.stringify, parse: JSON.parse, toString: Function.prototype.toString };

describe('prepareDocument', () => {
  it('extracts PDF text with lines and paragraph breaks', async () => {
    const bytes = await pdfOf([['Refund policy', '', 'The orders table holds every order.', 'Refunds reference orders.'], ['Second page about invoices.']]);
    const d = await prepareDocument({ filename: 'policy.pdf', bytes });
    expect(d.kind).toBe('pdf');
    expect(d.contentType).toBe('application/pdf');
    const all = d.chunks.map((c) => c.content).join('\n\n');
    expect(all).toContain('Refund policy\n\nThe orders table holds every order.\nRefunds reference orders.');
    expect(all).toContain('Second page about invoices.');
    expect(d.sizeBytes).toBe(bytes.length);
  });

  it('leaves the process its native push and JSON after loading pdfjs', async () => {
    await prepareDocument({ filename: 'a.pdf', bytes: await pdfOf([['Some text.']]) });
    expect(Array.prototype.push).toBe(natives.push);
    expect(JSON.stringify).toBe(natives.stringify);
    expect(JSON.parse).toBe(natives.parse);
    expect(Function.prototype.toString).toBe(natives.toString);
  });

  it('rejects a PDF without text, a fake PDF and an unsupported type', async () => {
    const blank = await pdfOf([[]]);
    expect(await rejection(prepareDocument({ filename: 'scan.pdf', bytes: blank }))).toMatchObject({
      code: 'DOCUMENT_REJECTED',
      status: 422,
      details: { filename: 'scan.pdf', reason: 'no_text' },
    });
    expect(await rejection(prepareDocument({ filename: 'fake.pdf', bytes: text('hello') }))).toMatchObject({ details: { reason: 'unreadable_pdf' } });
    expect(await rejection(prepareDocument({ filename: 'broken.pdf', bytes: text('%PDF-1.7\ngarbage') }))).toMatchObject({
      details: { reason: 'unreadable_pdf' },
    });
    expect(await rejection(prepareDocument({ filename: 'photo.png', mediaType: 'image/png', bytes: text('x') }))).toMatchObject({
      details: { filename: 'photo.png', reason: 'unsupported_type' },
    });
  });

  it('rejects empty, whitespace-only, binary and oversized files', async () => {
    expect(await rejection(prepareDocument({ filename: 'a.md', bytes: new Uint8Array() }))).toMatchObject({ details: { reason: 'empty' } });
    expect(await rejection(prepareDocument({ filename: 'a.txt', bytes: text('  \n\n ') }))).toMatchObject({ details: { reason: 'empty' } });
    expect(await rejection(prepareDocument({ filename: 'a.txt', bytes: new Uint8Array([0x61, 0, 0x62]) }))).toMatchObject({ details: { reason: 'not_utf8' } });
    expect(await rejection(prepareDocument({ filename: 'a.txt', bytes: new Uint8Array([0xff, 0xfe, 0x41]) }))).toMatchObject({
      details: { reason: 'not_utf8' },
    });
    const big = await rejection(prepareDocument({ filename: 'big.txt', bytes: new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61) }));
    expect(big).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413, details: { filename: 'big.txt', reason: 'too_large' } });
    expect(big.message).toContain('big.txt');
  });

  it('uses the media type when the name has no known extension', async () => {
    expect((await prepareDocument({ filename: 'README', mediaType: 'text/markdown', bytes: text('# Hi\nthere') })).kind).toBe('markdown');
    expect((await prepareDocument({ filename: 'schema.sql', mediaType: 'application/octet-stream', bytes: text('SELECT 1;') })).kind).toBe('sql');
  });
});
