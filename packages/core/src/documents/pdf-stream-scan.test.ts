import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateBombPdf } from '../../../../test/support/hostile-pdfs';
import { makePdf } from '../../../../test/support/documents';
import { isAppError } from '../errors/app-error';
import { checkPdfDecodedSize } from './pdf-stream-scan';
import { lzwBounded, OverBudget, runLengthBounded } from './pdf-stream-decoders';

const MIB = 1024 * 1024;
const LIMITS = { streamBytes: 64 * MIB, documentBytes: 256 * MIB };

const refusal = (run: () => unknown): Record<string, unknown> | undefined => {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return { code: error.code, ...error.details };
    throw error;
  }
  return undefined;
};

/** A PDF-shaped run of objects: one stream per entry (the scan reads streams, not the page tree). */
const streams = (entries: ReadonlyArray<{ dict: string; data: Uint8Array }>): Uint8Array =>
  Buffer.concat([
    Buffer.from('%PDF-1.7\n'),
    ...entries.flatMap((e, i) => [
      Buffer.from(`${i + 1} 0 obj\n<< ${e.dict} /Length ${e.data.length} >>\nstream\n`),
      e.data,
      Buffer.from('\nendstream\nendobj\n'),
    ]),
  ]);

describe('checkPdfDecodedSize', () => {
  it('counts an ordinary PDF and lets it through', async () => {
    const pdf = await makePdf([['Quarterly report', '', 'Revenue by region grew in every quarter.']]);
    expect(checkPdfDecodedSize('report.pdf', pdf, LIMITS)).toBeGreaterThan(0);
  });

  it('refuses a deflate bomb once one stream passes its bound, without decoding the rest', async () => {
    const pdf = await deflateBombPdf(256 * MIB);
    expect(pdf.length).toBeLessThan(MIB);
    const rss = process.memoryUsage().rss;
    expect(refusal(() => checkPdfDecodedSize('bomb.pdf', pdf, LIMITS))).toMatchObject({
      code: 'DOCUMENT_REJECTED',
      reason: 'decoded_too_large',
      scope: 'stream',
      limit_decoded_bytes: 64 * MIB,
    });
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * MIB);
  });

  it('refuses many streams under the per-stream bound that together pass the document bound; images count per stream only', () => {
    const small = { streamBytes: 4 * MIB, documentBytes: 16 * MIB };
    const piece = deflateSync(Buffer.alloc(3 * MIB, 0x20));
    const pdf = streams(Array.from({ length: 6 }, () => ({ dict: '/Filter /FlateDecode', data: piece })));
    expect(refusal(() => checkPdfDecodedSize('many.pdf', pdf, small))).toMatchObject({ reason: 'decoded_too_large', scope: 'document' });
    expect(checkPdfDecodedSize('five.pdf', streams(Array.from({ length: 5 }, () => ({ dict: '/Filter /FlateDecode', data: piece }))), small)).toBe(15 * MIB);
    const images = streams(Array.from({ length: 6 }, () => ({ dict: '/Type /XObject /Subtype /Image /Filter /FlateDecode', data: piece })));
    expect(checkPdfDecodedSize('photos.pdf', images, small)).toBe(0);
  });

  it('reads a stream to its real end when its bytes contain a fake endstream and its /Length is indirect', () => {
    // A stored (uncompressed) deflate block carrying " endstream", then 80 MiB of deflated spaces.
    const bomb = deflateSync(Buffer.alloc(80 * MIB, 0x20));
    const data = Buffer.concat([Buffer.from([0x78, 0x01, 0x00, 0x0a, 0x00, 0xf5, 0xff]), Buffer.from(' endstream'), bomb.subarray(2)]);
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.7\n1 0 obj\n<< /Filter /FlateDecode /Length 9 0 R >>\nstream\n'),
      data,
      Buffer.from('\nendstream\nendobj\n'),
    ]);
    expect(refusal(() => checkPdfDecodedSize('hidden.pdf', pdf, LIMITS))).toMatchObject({ reason: 'decoded_too_large' });
  });

  it('refuses a deflate stream that refers back before its start (pdfjs would read zeros and go on)', () => {
    // Deflated against a preset dictionary, then the header's dictionary flag and id removed:
    // every match into the dictionary now points before the stream's start.
    const dictionary = Buffer.from('quarterly revenue by region '.repeat(20));
    const withDict = deflateSync(Buffer.from('quarterly revenue by region '.repeat(4000)), { dictionary });
    const bad = Buffer.concat([Buffer.from([0x78, 0x9c]), withDict.subarray(6)]);
    const pdf = streams([{ dict: '/Filter /FlateDecode', data: bad }]);
    expect(refusal(() => checkPdfDecodedSize('odd.pdf', pdf, LIMITS))).toMatchObject({ reason: 'unreadable_pdf' });
  });

  it('bounds LZW and RunLength decoding too', () => {
    // RunLength: each 2-byte run is 128 bytes.
    const runs = Buffer.alloc(2 * 1024 * 1024);
    for (let i = 0; i < runs.length; i += 2) runs[i] = 129;
    expect(() => runLengthBounded(runs, 64 * MIB)).toThrow(OverBudget);
    expect(runLengthBounded(runs.subarray(0, 2000), 64 * MIB).length).toBe(1000 * 128);
    // LZW: 9-bit codes 65, 258, 259, ... each one byte longer than the last.
    const codes = [256, 65, ...Array.from({ length: 200 }, (_, i) => 258 + i)];
    let bits = '';
    let width = 9;
    let next = 258;
    for (const [i, c] of codes.entries()) {
      bits += c.toString(2).padStart(width, '0');
      if (i >= 2) next++;
      if (i >= 1 && next + 1 >= 1 << width) width++;
    }
    const packed = Buffer.alloc(Math.ceil(bits.length / 8));
    for (let i = 0; i < bits.length; i++) if (bits[i] === '1') packed[i >> 3]! |= 0x80 >> (i & 7);
    const out = lzwBounded(packed, 64 * MIB);
    expect(out.length).toBe(1 + Array.from({ length: 200 }, (_, i) => i + 2).reduce((a, b) => a + b, 0));
    expect(out.every((b) => b === 65)).toBe(true);
    expect(() => lzwBounded(packed, 1000)).toThrow(OverBudget);
  });
});
