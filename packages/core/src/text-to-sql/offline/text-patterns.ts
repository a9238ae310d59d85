import type { Word } from './words';

/** "whose title contains the word 'Garden'", "surname starts with 'B'": a LIKE pattern on a text column. */
export interface TextPattern {
  /** Index of the verb ("contains", "starts"): the column is named just before it. */
  verb: number;
  /** The quoted (or capitalised) word, [start, end). */
  start: number;
  end: number;
  text: string;
  /** The LIKE pattern, with LIKE's own wildcards in the text escaped. */
  pattern: string;
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const FILLER = new Set(['the', 'word', 'words', 'text', 'string', 'letter', 'letters', 'phrase', 'with', 'a']);

export function findTextPatterns(words: readonly Word[]): TextPattern[] {
  const out: TextPattern[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.lower;
    const kind = /^(contains?|containing|including|includes?)$/.test(w)
      ? 'contains'
      : /^(starts?|starting|begins?|beginning)$/.test(w)
        ? 'starts'
        : /^(ends?|ending)$/.test(w)
          ? 'ends'
          : undefined;
    if (!kind) continue;
    let k = i + 1;
    while (k < words.length && FILLER.has(words[k]!.lower) && words[k]!.kind === 'word') k++;
    const v = words[k];
    if (!v) continue;
    if (kind !== 'contains' && !words.slice(i + 1, k).some((x) => x.lower === 'with')) continue;
    if (v.kind !== 'quoted' && !(v.kind === 'word' && /^[A-Z]/.test(v.text))) continue;
    const e = escapeLike(v.text);
    out.push({ verb: i, start: k, end: k + 1, text: v.text, pattern: kind === 'contains' ? `%${e}%` : kind === 'starts' ? `${e}%` : `%${e}` });
  }
  return out;
}
