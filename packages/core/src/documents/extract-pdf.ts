import { AppError } from '../errors/app-error';
import { rejectDocument } from './document-rejection';

interface TextItem {
  str: string;
  hasEOL: boolean;
  transform: number[];
  width: number;
  height: number;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loaded: Promise<PdfJs> | undefined;

/**
 * Built-ins that the core-js polyfills bundled in pdfjs-dist's legacy build replace on Node 20
 * (V8 11), for the whole process and not only for pdfjs: `Array.prototype.push` by a JavaScript
 * loop (about a sixth of pdfjs's own text-extraction time), `JSON.stringify` by a version about
 * 5x slower (every API response after the first PDF upload), and `Function.prototype.toString`
 * to make the polyfills look native. Node's own versions are correct for everything pdfjs does, so
 * they are put back once pdfjs is loaded; what core-js only adds (`Promise.withResolvers`,
 * `Map.prototype.getOrInsertComputed`, ...) stays, because pdfjs needs it.
 */
function keepNativeBuiltins(): () => void {
  const saved = { push: Array.prototype.push, stringify: JSON.stringify, parse: JSON.parse, toString: Function.prototype.toString };
  return () => {
    Array.prototype.push = saved.push;
    JSON.stringify = saved.stringify;
    JSON.parse = saved.parse;
    Function.prototype.toString = saved.toString;
  };
}

/**
 * pdfjs-dist's legacy build (the one meant for Node). Its worker module is installed on
 * `globalThis.pdfjsWorker` so parsing runs in-process without a dynamic worker import, which
 * also lets a bundler see the dependency.
 */
function pdfjs(): Promise<PdfJs> {
  // A failed load is not kept: it would answer every later PDF of this thread with the same error.
  loaded ??= (async () => {
    const restore = keepNativeBuiltins();
    try {
      const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      restore();
    }
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/** One page's text with line breaks, and blank lines where the vertical gap says a paragraph ends. */
function pageText(items: readonly TextItem[]): string {
  const lines: Array<{ y: number; size: number; text: string }> = [];
  let text = '';
  let y: number | null = null;
  let size = 0;
  let endX: number | null = null;
  const endLine = (): void => {
    if (text.trim() !== '' && y !== null) lines.push({ y, size, text: text.trim() });
    text = '';
    endX = null;
  };
  for (const item of items) {
    const itemSize = Math.abs(item.transform[3] ?? item.height) || item.height || 10;
    const x = item.transform[4] ?? 0;
    const itemY = item.transform[5] ?? 0;
    if (y !== null && Math.abs(itemY - y) > itemSize / 2) endLine();
    if (item.str !== '') {
      if (text === '') {
        y = itemY;
        size = itemSize;
      } else if (endX !== null && x > endX + itemSize * 0.15 && !text.endsWith(' ') && !item.str.startsWith(' ')) {
        text += ' ';
      }
      text += item.str;
      endX = x + item.width;
    }
    if (item.hasEOL) endLine();
  }
  endLine();
  let out = '';
  lines.forEach((line, i) => {
    const prev = lines[i - 1];
    if (prev) out += Math.abs(prev.y - line.y) > Math.max(prev.size, line.size) * 1.6 ? '\n\n' : '\n';
    out += line.text;
  });
  return out;
}

type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

/** Opens a PDF; encrypted and unreadable files are rejected with DOCUMENT_REJECTED naming `filename`. */
async function openPdf(filename: string, bytes: Uint8Array): Promise<PdfDocument> {
  const { getDocument, VerbosityLevel } = await pdfjs();
  // pdfjs takes ownership of (detaches) the buffer it is given, so hand it a copy.
  const task = getDocument({
    data: new Uint8Array(bytes),
    verbosity: VerbosityLevel.ERRORS,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
  });
  try {
    return await task.promise;
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    throw rejectDocument(
      filename,
      name === 'PasswordException' ? 'encrypted_pdf' : 'unreadable_pdf',
      name === 'PasswordException' ? `${filename} is a password-protected PDF` : `${filename} is not a readable PDF`,
    );
  }
}

/** Text of one page. */
async function textOfPage(doc: PdfDocument, n: number): Promise<string> {
  const page = await doc.getPage(n);
  const content = await page.getTextContent();
  page.cleanup();
  return pageText(content.items.filter((i): i is Extract<(typeof content.items)[number], { str: string }> => 'str' in i));
}

const joinPages = (pages: readonly string[]): string => pages.filter((p) => p.trim() !== '').join('\n\n');

/**
 * The text of pages `from`..`to` (1-based, inclusive; `to` is clamped to the last page), pages
 * separated by blank lines.
 */
export async function extractPdfPages(filename: string, bytes: Uint8Array, from: number, to: number): Promise<string> {
  const doc = await openPdf(filename, bytes);
  try {
    const pages: string[] = [];
    for (let n = from; n <= Math.min(to, doc.numPages); n++) pages.push(await textOfPage(doc, n));
    return joinPages(pages);
  } catch {
    throw rejectDocument(filename, 'unreadable_pdf', `${filename} is not a readable PDF`);
  } finally {
    await doc.destroy();
  }
}

/**
 * Share `share` of `shares` of a PDF's pages (contiguous, in order), handed to `onBlock` as the
 * text of `blockPages` pages at a time, block 0, 1, 2, ... Opening a 10 MB PDF costs pdfjs about
 * a second (its cross-reference table), so each extraction thread opens the file once and takes
 * one share. Resolves with the document's page count.
 */
export async function extractPdfShare(
  filename: string,
  bytes: Uint8Array,
  share: { index: number; of: number; blockPages: number },
  onBlock: (block: number, text: string) => Promise<void>,
): Promise<number> {
  const doc = await openPdf(filename, bytes);
  try {
    const n = doc.numPages;
    const first = Math.floor((share.index * n) / share.of) + 1;
    const last = Math.floor(((share.index + 1) * n) / share.of);
    let block = 0;
    for (let from = first; from <= last; from += share.blockPages, block++) {
      const pages: string[] = [];
      for (let p = from; p <= Math.min(last, from + share.blockPages - 1); p++) pages.push(await textOfPage(doc, p));
      await onBlock(block, joinPages(pages));
    }
    return n;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw rejectDocument(filename, 'unreadable_pdf', `${filename} is not a readable PDF`);
  } finally {
    await doc.destroy();
  }
}

/**
 * The text of a PDF, pages separated by blank lines. Encrypted and unreadable files are
 * rejected with DOCUMENT_REJECTED naming `filename`.
 */
export const extractPdfText = (filename: string, bytes: Uint8Array): Promise<string> => extractPdfPages(filename, bytes, 1, Number.MAX_SAFE_INTEGER);
