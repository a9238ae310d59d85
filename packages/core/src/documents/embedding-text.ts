import type { DocumentChunk } from './chunk';

/** The text a chunk is embedded from: its heading path gives it the section's topic. */
export const embeddingText = (c: DocumentChunk): string => (c.heading ? `${c.heading}\n${c.content}` : c.content);
