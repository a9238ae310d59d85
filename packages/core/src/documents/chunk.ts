/** One piece of a document as stored and embedded. */
export interface DocumentChunk {
  /** 0-based position in the document. */
  index: number;
  /** Heading path the chunk sits under ("Billing > Refunds"), or null. */
  heading: string | null;
  content: string;
}

/** What chunkers produce before indexes are assigned. */
export interface ChunkDraft {
  heading: string | null;
  content: string;
}

export const numberChunks = (drafts: readonly ChunkDraft[]): DocumentChunk[] =>
  drafts.filter((d) => d.content.trim() !== '').map((d, index) => ({ index, heading: d.heading, content: d.content.trim() }));
