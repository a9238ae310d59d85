import { rejectDocument } from './document-rejection';
import { checkLeadingBytes, type DocumentKind } from './document-type';

/**
 * Checks a file's bytes against its kind while they arrive, so an upload slot refuses a wrong
 * file before it is stored: a PDF's signature in its first KB; for text, Markdown and SQL,
 * UTF-8 without NUL bytes (a streaming decoder, so a character split across two pieces is fine).
 */
export class ContentSniffer {
  readonly #filename: string;
  readonly #kind: DocumentKind;
  #head: Uint8Array[] = [];
  #headBytes = 0;
  #headChecked = false;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(filename: string, kind: DocumentKind) {
    this.#filename = filename;
    this.#kind = kind;
  }

  /** Throws the rejection naming the file when `piece` shows the bytes are not of the kind. */
  push(piece: Uint8Array): void {
    if (this.#kind === 'pdf') {
      if (this.#headChecked) return;
      this.#head.push(piece);
      this.#headBytes += piece.length;
      if (this.#headBytes >= 1024) this.#checkHead();
      return;
    }
    if (piece.includes(0)) throw rejectDocument(this.#filename, 'not_utf8', `${this.#filename} is binary, not UTF-8 text`);
    try {
      this.#decoder.decode(piece, { stream: true });
    } catch {
      throw rejectDocument(this.#filename, 'not_utf8', `${this.#filename} is not valid UTF-8 text`);
    }
  }

  /** Ends the file: a PDF shorter than 1 KB is checked now; text must not end mid-character. */
  end(): void {
    if (this.#kind === 'pdf') {
      if (!this.#headChecked) this.#checkHead();
      return;
    }
    try {
      this.#decoder.decode();
    } catch {
      throw rejectDocument(this.#filename, 'not_utf8', `${this.#filename} is not valid UTF-8 text`);
    }
  }

  #checkHead(): void {
    this.#headChecked = true;
    checkLeadingBytes(this.#filename, this.#kind, Buffer.concat(this.#head));
    this.#head = [];
  }
}
