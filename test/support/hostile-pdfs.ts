import { createDeflate, deflateSync } from 'node:zlib';

/**
 * Hostile PDFs built byte by byte, as an attacker would: small files that cost the parser far
 * more than their size. Only the structure a reader needs is written (catalog, pages, a font,
 * the cross-reference table), so every byte of the attack is visible here.
 */

const latin1 = (s: string): Uint8Array => Buffer.from(s, 'latin1');

/** Serialises objects (1-based, in order) into a PDF with a cross-reference table. */
function writePdf(objects: ReadonlyArray<string | { dict: string; data: Uint8Array }>): Uint8Array {
  const parts: Uint8Array[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  const push = (b: Uint8Array): void => {
    parts.push(b);
    offset += b.length;
  };
  objects.forEach((o, i) => {
    offsets.push(offset);
    if (typeof o === 'string') push(latin1(`${i + 1} 0 obj\n${o}\nendobj\n`));
    else {
      push(latin1(`${i + 1} 0 obj\n<< ${o.dict} /Length ${o.data.length} >>\nstream\n`));
      push(o.data);
      push(latin1('\nendstream\nendobj\n'));
    }
  });
  const xref = offset;
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  push(
    latin1(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

/** Catalog, page tree and a standard font: objects 1-3; the page is object 4, its content 5. */
const FRAME = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];

/** Deflates `size` bytes of `fill` after `head` without ever holding them: zlib level 9, 1 MiB at a time. */
async function deflateMany(head: string, fill: number, size: number): Promise<Uint8Array> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (d: Buffer) => out.push(d));
  const done = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  const piece = Buffer.alloc(1024 * 1024, fill);
  deflate.write(latin1(head));
  for (let left = size; left > 0; left -= piece.length) {
    if (!deflate.write(left >= piece.length ? piece : piece.subarray(0, left))) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/**
 * A one-page PDF whose content stream inflates to `decodedBytes` (a line of real text, then
 * spaces): a "deflate bomb". 1 GiB of spaces deflates to about 1 MB.
 */
export async function deflateBombPdf(decodedBytes: number): Promise<Uint8Array> {
  const head = 'BT /F1 12 Tf 72 720 Td (Quarterly revenue by region) Tj ET\n';
  const content = await deflateMany(head, 0x20, decodedBytes - head.length);
  return writePdf([
    ...FRAME,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    { dict: '/Filter /FlateDecode', data: content },
  ]);
}

/**
 * A PDF of nested form XObjects: form 0 draws one word, and each form k draws form k-1
 * `fanout` times, so the page's one `Do` makes fanout^depth text draws (10^8 by default) from a
 * file of about 2 KB. Nothing in it is large; only the work is.
 */
export function nestedFormBombPdf(depth = 8, fanout = 10): Uint8Array {
  const formObject = (k: number): number => 6 + k;
  const forms = Array.from({ length: depth + 1 }, (_, k) => {
    const body = k === 0 ? 'BT /F1 12 Tf 72 720 Td (ledger) Tj ET' : `/X${k - 1} Do `.repeat(fanout);
    const resources = k === 0 ? '/Font << /F1 3 0 R >>' : `/XObject << /X${k - 1} ${formObject(k - 1)} 0 R >>`;
    return { dict: `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << ${resources} >> /Filter /FlateDecode`, data: deflateSync(latin1(body)) };
  });
  return writePdf([
    ...FRAME,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X${depth} ${formObject(depth)} 0 R >> >> /Contents 5 0 R >>`,
    { dict: '', data: latin1(`/X${depth} Do`) },
    ...forms,
  ]);
}
