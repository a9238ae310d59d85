import { brotliDecompressSync, constants, inflateSync } from 'node:zlib';

/** A decoder produced more than the bytes it was allowed: the scan stops there. */
export class OverBudget extends Error {
  constructor() {
    super('decoded bytes over budget');
  }
}

/** The data of a stream that zlib finds corrupt where pdfjs would keep decoding (see {@link inflateBounded}). */
export class CorruptStream extends Error {}

const isCode = (error: unknown, code: string): boolean => (error as { code?: unknown } | null)?.code === code;

/** Grows an output buffer by doubling, never past `budget` bytes. */
class Output {
  bytes = new Uint8Array(4096);
  length = 0;
  constructor(private readonly budget: number) {}
  push(byte: number): void {
    if (this.length >= this.budget) throw new OverBudget();
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(Math.min(this.bytes.length * 2, this.budget));
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = byte;
  }
  result(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

function inflateOnce(data: Uint8Array, budget: number, partial: boolean): Uint8Array {
  try {
    return inflateSync(data, { maxOutputLength: budget, ...(partial ? { finishFlush: constants.Z_SYNC_FLUSH } : {}) });
  } catch (error) {
    if (isCode(error, 'ERR_BUFFER_TOO_LARGE')) throw new OverBudget();
    throw error;
  }
}

/**
 * Inflates a FlateDecode stream, never producing more than `budget` bytes. `data` is the
 * stream's data as its dictionary and `endstream` delimit it; `rest` runs from the same start
 * to the end of the file. zlib stops at the end of a deflate stream and ignores what follows,
 * so a stream cut short at a fake `endstream` (those bytes inside compressed data, with an
 * indirect /Length) is inflated to its real end from `rest`. A stream that is only truncated
 * counts what it yields, as pdfjs reads it. zlib refuses a back-reference before the start of
 * the output, which pdfjs fills with zeros and decodes past: such a stream is refused as
 * corrupt rather than left uncounted. A bad header is what pdfjs refuses too: nothing decoded.
 */
export function inflateBounded(data: Uint8Array, rest: Uint8Array, budget: number): Uint8Array {
  try {
    return inflateOnce(data, budget, false);
  } catch (error) {
    if (error instanceof OverBudget) throw error;
    const message = error instanceof Error ? error.message : '';
    if (/distance too far back/.test(message)) throw new CorruptStream(message);
    if (/header check/.test(message)) return new Uint8Array(0);
    if (!isCode(error, 'Z_BUF_ERROR')) return inflateOnce(data, budget, true);
  }
  if (rest.length > data.length) {
    try {
      return inflateOnce(rest, budget, false);
    } catch (error) {
      if (error instanceof OverBudget) throw error;
    }
  }
  return inflateOnce(data, budget, true);
}

export function brotliBounded(data: Uint8Array, budget: number): Uint8Array {
  try {
    return brotliDecompressSync(data, { maxOutputLength: budget, finishFlush: constants.BROTLI_OPERATION_FLUSH });
  } catch (error) {
    if (isCode(error, 'ERR_BUFFER_TOO_LARGE')) throw new OverBudget();
    return new Uint8Array(0);
  }
}

/** LZWDecode (PDF's variant: 9-12 bit codes, clear 256, end 257), bounded. */
export function lzwBounded(data: Uint8Array, budget: number, earlyChange = 1): Uint8Array {
  const out = new Output(budget);
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  const stack = new Uint8Array(4096);
  const write = (code: number): void => {
    let n = 0;
    for (let c = code; c >= 0; c = prefix[c]!) stack[n++] = suffix[c]!;
    while (n > 0) out.push(stack[--n]!);
  };
  let next = 258;
  let width = 9;
  let prev = -1;
  let bits = 0;
  let held = 0;
  let at = 0;
  for (;;) {
    while (held < width && at < data.length) {
      bits = ((bits << 8) | data[at++]!) >>> 0;
      held += 8;
    }
    if (held < width) break;
    const code = (bits >>> (held - width)) & ((1 << width) - 1);
    held -= width;
    bits &= (1 << held) - 1;
    if (code === 256) {
      next = 258;
      width = 9;
      prev = -1;
      continue;
    }
    if (code === 257) break;
    if (prev < 0) {
      if (code > 255) break;
      write(code);
      prev = code;
      continue;
    }
    if (code > next || (code === next && next >= 4096)) break;
    const head = code === next ? first[prev]! : first[code]!;
    if (next < 4096) {
      prefix[next] = prev;
      suffix[next] = head;
      first[next] = first[prev]!;
      length[next] = length[prev]! + 1;
      next++;
    }
    write(code);
    prev = code;
    if (next + earlyChange >= 1 << width && width < 12) width++;
  }
  return out.result();
}

/** RunLengthDecode, bounded. */
export function runLengthBounded(data: Uint8Array, budget: number): Uint8Array {
  const out = new Output(budget);
  for (let i = 0; i < data.length;) {
    const n = data[i++]!;
    if (n === 128) break;
    if (n < 128) for (let k = 0; k <= n && i < data.length; k++) out.push(data[i++]!);
    else if (i < data.length) {
      const b = data[i++]!;
      for (let k = 0; k < 257 - n; k++) out.push(b);
    }
  }
  return out.result();
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;

/** ASCIIHexDecode (never longer than its input). */
export function asciiHexDecode(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / 2));
  let n = 0;
  let high = -1;
  for (const b of data) {
    if (b === 0x3e) break;
    const v = b >= 0x30 && b <= 0x39 ? b - 0x30 : (b | 0x20) >= 0x61 && (b | 0x20) <= 0x66 ? (b | 0x20) - 0x57 : -1;
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out[n++] = (high << 4) | v;
      high = -1;
    }
  }
  if (high >= 0) out[n++] = high << 4;
  return out.subarray(0, n);
}

/** ASCII85Decode (at most 4 bytes per 5 characters, or per `z`: bounded by 4x its input). */
export function ascii85Decode(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length * 4);
  let n = 0;
  let group = 0;
  let count = 0;
  for (let i = 0; i < data.length; i++) {
    const b = data[i]!;
    if (b === 0x7e) break;
    if (isSpace(b)) continue;
    if (b === 0x7a && count === 0) {
      n += 4;
      continue;
    }
    if (b < 0x21 || b > 0x75) continue;
    group = group * 85 + (b - 0x21);
    if (++count === 5) {
      out[n++] = group >>> 24;
      out[n++] = (group >>> 16) & 0xff;
      out[n++] = (group >>> 8) & 0xff;
      out[n++] = group & 0xff;
      group = 0;
      count = 0;
    }
  }
  if (count > 1) {
    for (let k = count; k < 5; k++) group = group * 85 + 84;
    for (let k = 0; k < count - 1; k++) out[n++] = (group >>> (24 - 8 * k)) & 0xff;
  }
  return out.subarray(0, n);
}
