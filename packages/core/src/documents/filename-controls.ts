import type { ValidationIssue } from '../errors/validation-error';

/**
 * Bidirectional formatting characters: embeddings and overrides (U+202A-U+202E), isolates
 * (U+2066-U+2069), the implicit marks (U+200E, U+200F) and the Arabic letter mark (U+061C).
 * In a filename they reorder what a listing shows, so `invoice\u202Efdp.md` reads as
 * `invoicedm.pdf`: a name's extension could be disguised, so such names are refused, not cleaned.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The spec's validation entry for a filename carrying a bidirectional control character, at
 * `loc` (e.g. `['body', 'files', 2, 'filename']`); undefined for a name without one.
 */
export function bidiFilenameIssue(filename: string, loc: Array<string | number>): ValidationIssue | undefined {
  const found = BIDI_CONTROLS.exec(filename);
  if (!found) return undefined;
  const character = codePoint(found[0]);
  return {
    loc,
    msg: `Filename must not contain bidirectional control characters (found ${character}); they can disguise a name's extension`,
    type: 'value_error',
    input: filename,
    ctx: { character },
  };
}
