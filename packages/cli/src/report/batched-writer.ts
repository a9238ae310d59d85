/**
 * Text handed on in pieces of at most about `size` characters: small parts are gathered (fewer
 * writes), a long text is cut (a write converts its text to UTF-8 in one buffer, and a 2 MB
 * report then took 2 MB of fresh memory from the kernel for that buffer alone).
 */
export interface BatchedWriter {
  write(text: string): void;
  /** Hands on what is left. */
  end(): void;
}

export function batchedWriter(flush: (text: string) => void, size = 1 << 15): BatchedWriter {
  let pending = '';
  return {
    write(text) {
      if (pending.length + text.length < size) {
        pending += text;
        return;
      }
      if (pending) flush(pending);
      pending = '';
      // Slices of a flat string share its characters: cutting it copies nothing. A cut never
      // parts the two halves of a surrogate pair, which each piece's UTF-8 would lose.
      let at = 0;
      while (text.length - at >= size) {
        let end = at + size;
        if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
        flush(text.slice(at, end));
        at = end;
      }
      pending = text.slice(at);
    },
    end() {
      if (pending) flush(pending);
      pending = '';
    },
  };
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
