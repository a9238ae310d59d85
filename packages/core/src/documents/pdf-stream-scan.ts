import { rejectDocument } from './document-rejection';
import { ascii85Decode, asciiHexDecode, brotliBounded, CorruptStream, inflateBounded, lzwBounded, OverBudget, runLengthBounded } from './pdf-stream-decoders';

/** How many decoded bytes a PDF's streams may produce. */
export interface DecodedByteLimits {
  /** One stream: a page's content, a form, a font, an image, an object stream. */
  streamBytes: number;
  /** Every stream of the document together, images excepted (text extraction never decodes them). */
  documentBytes: number;
}

const FILTER_NAMES: Record<string, string> = {
  Fl: 'FlateDecode',
  LZW: 'LZWDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
  RL: 'RunLengthDecode',
};

/** A stream's dictionary, as far as the scan needs it. */
interface StreamDict {
  filters: string[];
  image: boolean;
  length: number | { object: number; generation: number } | undefined;
  earlyChange: number;
}

function parseDict(text: string): StreamDict {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+)/.exec(text)?.[1] ?? '';
  const filters = [...filter.matchAll(/\/([^\s/<>[\]()]+)/g)].map((m) => FILTER_NAMES[m[1]!] ?? m[1]!);
  const length = /\/Length\s+(\d+)(?:\s+(\d+)\s+R)?/.exec(text);
  return {
    filters,
    image: /\/Subtype\s*\/Image\b/.test(text),
    length: !length ? undefined : length[2] !== undefined ? { object: Number(length[1]), generation: Number(length[2]) } : Number(length[1]),
    earlyChange: /\/EarlyChange\s+0\b/.test(text) ? 0 : 1,
  };
}

/** Where the dictionary that ends at `end` (just past its `>>`) starts, or -1. */
function dictStart(text: string, end: number): number {
  let depth = 0;
  for (let i = end - 2, stop = Math.max(0, end - 65_536); i >= stop; i--) {
    if (text[i] === '>' && text[i + 1] === '>') {
      depth++;
      i--;
    } else if (text[i] === '<' && text[i + 1] === '<') {
      if (--depth === 0) return i;
      i--;
    }
  }
  return -1;
}

/** Decodes `data` through `filters`, every stage's output counted against `budget`; image codecs end the chain. */
function decodeChain(data: Uint8Array, rest: Uint8Array, dict: StreamDict, budget: number): number {
  let bytes = data;
  let total = 0;
  for (const [i, filter] of dict.filters.entries()) {
    const left = budget - total;
    const first = i === 0;
    switch (filter) {
      case 'FlateDecode':
        bytes = inflateBounded(bytes, first ? rest : bytes, left);
        break;
      case 'BrotliDecode':
        bytes = brotliBounded(bytes, left);
        break;
      case 'LZWDecode':
        bytes = lzwBounded(bytes, left, dict.earlyChange);
        break;
      case 'RunLengthDecode':
        bytes = runLengthBounded(bytes, left);
        break;
      case 'ASCIIHexDecode':
        bytes = asciiHexDecode(bytes);
        break;
      case 'ASCII85Decode':
        bytes = ascii85Decode(bytes);
        break;
      default:
        // DCT, JPX, JBIG2, CCITT and unknown filters: image codecs pdfjs's text extraction never runs.
        return total;
    }
    total += bytes.length;
    if (total > budget) throw new OverBudget();
  }
  return total;
}

const MIB = 1024 * 1024;
const mib = (n: number): string => `${Math.round((n / MIB) * 10) / 10} MiB`;

/**
 * Checks, before pdfjs sees a PDF, how many bytes its compressed streams decode to, stopping
 * each decoder at the budget: pdfjs inflates a stream whole into one growing buffer (a 1 MB
 * file of one deflated content stream made it hold 1 GiB, twice over while the buffer doubled),
 * and an ArrayBuffer is outside the thread's heap limit, so nothing else would stop it. Every
 * `stream` keyword is found in the raw bytes, its dictionary read for /Filter, /Length and
 * /Subtype, and its data decoded with the budget that is left: a stream over
 * `limits.streamBytes`, or a document whose non-image streams together pass
 * `limits.documentBytes`, is refused (`decoded_too_large`, 422) without decoding further.
 * Images count against the per-stream bound only: text extraction never decodes them, so a
 * scan-heavy report is not refused for its pictures, while an "image" a page uses as its
 * content is still bounded. Returns the decoded bytes counted.
 */
export function checkPdfDecodedSize(filename: string, bytes: Uint8Array, limits: DecodedByteLimits): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString('latin1');
  // Lengths given as indirect objects, where those objects are plain (`12 0 obj 3456 endobj`).
  const lengths = new Map<string, number>();
  for (const m of text.matchAll(/(\d+)\s+(\d+)\s+obj\s*(\d+)\s*endobj/g)) lengths.set(`${m[1]} ${m[2]}`, Number(m[3]));
  let documentTotal = 0;
  const refuse = (scope: 'stream' | 'document'): never => {
    const limit = scope === 'stream' ? limits.streamBytes : limits.documentBytes;
    const where = scope === 'stream' ? 'in one stream' : 'in all';
    throw rejectDocument(filename, 'decoded_too_large', `${filename} decodes to more than ${mib(limit)} ${where}; it looks like a compression bomb`, {
      limit_decoded_bytes: limit,
      scope,
    });
  };
  for (let at = text.indexOf('stream'); at >= 0; at = text.indexOf('stream', at + 6)) {
    if (at >= 3 && text.startsWith('end', at - 3)) continue;
    let dataStart = at + 6;
    if (text[dataStart] === '\r') dataStart++;
    if (text[dataStart] === '\n') dataStart++;
    else if (text[at + 6] !== '\r') continue;
    let dictEnd = at;
    while (dictEnd > 0 && /\s/.test(text[dictEnd - 1]!)) dictEnd--;
    if (!text.startsWith('>>', dictEnd - 2)) continue;
    const start = dictStart(text, dictEnd);
    if (start < 0) continue;
    const dict = parseDict(text.slice(start, dictEnd));
    if (dict.filters.length === 0) continue;
    const declared = typeof dict.length === 'number' ? dict.length : dict.length ? lengths.get(`${dict.length.object} ${dict.length.generation}`) : undefined;
    const followedByEnd = (end: number): boolean => /^\s*endstream/.test(text.slice(end, end + 32));
    let dataEnd = declared !== undefined && followedByEnd(dataStart + declared) ? dataStart + declared : text.indexOf('endstream', dataStart);
    if (dataEnd < 0) dataEnd = text.length;
    const budget = dict.image ? limits.streamBytes : Math.min(limits.streamBytes, limits.documentBytes - documentTotal);
    let decoded: number;
    try {
      decoded = decodeChain(buffer.subarray(dataStart, dataEnd), buffer.subarray(dataStart), dict, budget);
    } catch (error) {
      if (error instanceof OverBudget) {
        refuse(budget < limits.streamBytes ? 'document' : 'stream');
      }
      if (error instanceof CorruptStream) throw rejectDocument(filename, 'unreadable_pdf', `${filename} has a corrupt compressed stream`);
      throw error;
    }
    if (!dict.image) documentTotal += decoded;
    at = Math.max(at, dataEnd - 6);
  }
  return documentTotal;
}
