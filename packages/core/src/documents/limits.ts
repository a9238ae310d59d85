/** Largest accepted file: 10 MB (10 x 1024 x 1024 bytes), spec section 8. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Most files in one upload request, spec section 8. */
export const MAX_FILES_PER_BATCH = 50;

/** Longest accepted filename, in characters, after path components are stripped. */
export const MAX_FILENAME_LENGTH = 255;

/** Chunks aim for this many characters; paragraphs are packed up to it. */
export const CHUNK_TARGET_CHARS = 1000;

/** A single paragraph or statement longer than this is cut at sentence or line ends. */
export const CHUNK_MAX_CHARS = 1600;

/** Characters of the previous chunk repeated at the start of the next one in the same section. */
export const CHUNK_OVERLAP_CHARS = 200;
