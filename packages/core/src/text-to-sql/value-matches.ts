import type { ColumnValueSample } from '../introspection/schema-snapshot';
import { questionWords, STOP_WORDS, type Word } from './offline/words';

/** A stored column value found in the question, at words [start, end). */
export interface ValueMatch {
  start: number;
  end: number;
  /** Every column holding the value (several when it is ambiguous), with the value as stored. */
  holders: Array<{ sample: ColumnValueSample; value: string }>;
  /** The words matched the value exactly (case aside), not only by stem ("Representatives" for "Representative"). */
  exact: boolean;
}

const matchable = (w: Word | undefined): w is Word => w !== undefined && (w.kind === 'word' || w.kind === 'number' || w.kind === 'quoted');

/**
 * Whether a value's words are worth looking for: a value of one short or common word ("No",
 * "A", "all") would match nearly any question; numbers are left to comparisons.
 */
function searchable(tokens: readonly Word[]): boolean {
  if (tokens.length === 0 || tokens.length > 8) return false;
  // "PG-13", "AC/DC", "South America": several short tokens are as distinctive as one long word.
  if (tokens.length > 1) return tokens.some((t) => t.kind === 'word') && tokens.reduce((n, t) => n + t.lower.length, 0) >= 4;
  const [t] = tokens;
  return t!.kind === 'word' && t!.lower.length > 2 && !STOP_WORDS.has(t!.lower) && !STOP_WORDS.has(t!.stem);
}

/**
 * The sampled column values that occur in the question, longest first and without overlaps.
 * Words are compared as the question's tokenizer splits them, so "AC/DC" matches "AC DC" and
 * "PG-13" matches "PG-13"; case is ignored, and a value of several words also matches by stems.
 */
export function findValueMatches(words: readonly Word[], samples: readonly ColumnValueSample[]): ValueMatch[] {
  const byFirst = new Map<string, Array<{ tokens: Word[]; sample: ColumnValueSample; value: string }>>();
  for (const sample of samples) {
    for (const value of sample.values) {
      const tokens = questionWords(value).filter(matchable);
      if (!searchable(tokens)) continue;
      for (const key of new Set([tokens[0]!.lower, tokens[0]!.stem])) {
        const list = byFirst.get(key) ?? [];
        list.push({ tokens, sample, value });
        byFirst.set(key, list);
      }
    }
  }
  const candidates: ValueMatch[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (!matchable(w)) continue;
    const found = new Map<string, ValueMatch>();
    for (const entry of [...(byFirst.get(w.lower) ?? []), ...(w.stem !== w.lower ? (byFirst.get(w.stem) ?? []) : [])]) {
      const n = entry.tokens.length;
      let exact = true;
      let ok = true;
      for (let j = 0; j < n; j++) {
        const q = words[i + j];
        const t = entry.tokens[j]!;
        if (!matchable(q)) {
          ok = false;
          break;
        }
        if (q.lower === t.lower) continue;
        exact = false;
        if (!(q.kind === 'word' && t.kind === 'word' && q.stem === t.stem && t.lower.length > 3)) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      const k = `${i}:${n}`;
      const m = found.get(k) ?? { start: i, end: i + n, holders: [], exact: true };
      m.exact = m.exact && exact;
      if (!m.holders.some((h) => h.sample === entry.sample)) m.holders.push({ sample: entry.sample, value: entry.value });
      found.set(k, m);
    }
    candidates.push(...found.values());
  }
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken = new Set<number>();
  const out: ValueMatch[] = [];
  for (const c of candidates) {
    let free = true;
    for (let i = c.start; i < c.end; i++) if (taken.has(i)) free = false;
    if (!free) continue;
    for (let i = c.start; i < c.end; i++) taken.add(i);
    out.push(c);
  }
  return out.sort((a, b) => a.start - b.start);
}
