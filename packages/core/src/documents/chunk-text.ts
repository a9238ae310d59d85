import { type ChunkDraft, type DocumentChunk, numberChunks } from './chunk';
import { CHUNK_MAX_CHARS, CHUNK_OVERLAP_CHARS, CHUNK_TARGET_CHARS } from './limits';

/** A run of text under one heading path. */
export interface Section {
  heading: string | null;
  body: string;
}

const FENCE = /^\s*(```|~~~)/;

/** Paragraphs separated by blank lines; a fenced code block stays one paragraph. */
export function splitParagraphs(body: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let inFence = false;
  const flush = (): void => {
    const p = current.join('\n').trim();
    if (p !== '') out.push(p);
    current = [];
  };
  for (const line of body.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    if (!inFence && line.trim() === '') flush();
    else current.push(line);
  }
  flush();
  return out;
}

/** Cuts an over-long paragraph at sentence or line ends, and hard at {@link CHUNK_MAX_CHARS} as a last resort. */
export function splitLongText(text: string, max = CHUNK_MAX_CHARS): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    // Prefer the last sentence or line end in the second half of the window, then a space.
    const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '), window.lastIndexOf('\n'));
    const space = window.lastIndexOf(' ');
    const cut = sentence >= max / 2 ? sentence + 1 : space >= max / 2 ? space : max;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}

/** The end of a chunk repeated at the start of the next one, starting at a word boundary. */
export function overlapTail(text: string, size = CHUNK_OVERLAP_CHARS): string {
  if (text.length <= size) return text;
  const tail = text.slice(-size);
  const sentence = tail.search(/[.?!]\s+\S/);
  if (sentence >= 0 && sentence < size / 2) return tail.slice(sentence + 1).trim();
  const space = tail.indexOf(' ');
  return (space >= 0 ? tail.slice(space + 1) : tail).trim();
}

/**
 * Packs each section's paragraphs into chunks of about {@link CHUNK_TARGET_CHARS}; a new chunk
 * within the same section starts with the tail of the previous one, so a fact that straddles a
 * boundary is found from either side. Sections never share a chunk.
 */
export function chunkSections(sections: readonly Section[]): ChunkDraft[] {
  const drafts: ChunkDraft[] = [];
  for (const section of sections) {
    const pieces = splitParagraphs(section.body).flatMap((p) => splitLongText(p));
    let current = '';
    let fresh = false; // whether `current` holds more than the carried-over overlap
    for (const piece of pieces) {
      if (fresh && current.length + piece.length + 2 > CHUNK_TARGET_CHARS) {
        drafts.push({ heading: section.heading, content: current });
        current = overlapTail(current);
      }
      current = current === '' ? piece : `${current}\n\n${piece}`;
      fresh = true;
    }
    if (fresh) drafts.push({ heading: section.heading, content: current });
  }
  return drafts;
}

const ATX = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/** Markdown split at ATX headings (outside code fences); each chunk carries its heading path. */
export function markdownSections(text: string): Section[] {
  const sections: Section[] = [];
  const stack: Array<{ level: number; title: string }> = [];
  let body: string[] = [];
  let inFence = false;
  const heading = (): string | null => (stack.length ? stack.map((h) => h.title).join(' > ') : null);
  const flush = (): void => {
    if (body.join('').trim() !== '') sections.push({ heading: heading(), body: body.join('\n') });
    body = [];
  };
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const m = inFence ? null : ATX.exec(line);
    if (m) {
      flush();
      const level = m[1]!.length;
      while (stack.length && stack.at(-1)!.level >= level) stack.pop();
      stack.push({ level, title: m[2]! });
      continue;
    }
    body.push(line);
  }
  flush();
  // A document of headings only still has something to say.
  if (sections.length === 0 && stack.length > 0) sections.push({ heading: null, body: text });
  return sections;
}

const normalizeNewlines = (text: string): string => text.replace(/\r\n?/g, '\n');

export const chunkMarkdown = (text: string): DocumentChunk[] => numberChunks(chunkSections(markdownSections(normalizeNewlines(text))));

export const chunkPlainText = (text: string): DocumentChunk[] => numberChunks(chunkSections([{ heading: null, body: normalizeNewlines(text) }]));
