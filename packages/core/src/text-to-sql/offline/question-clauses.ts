import type { Word } from './words';

/**
 * The parts of an exercise-style question that are not about which rows: "Produce a list of
 * ...", "Return the id, name and cost", "sorted by cost descending", "the first 10", "without
 * duplicates". Found before tables and columns are matched, so that "ordered" in "an ordered
 * list" is not the orders table and "Return" at the start of a sentence is not a name.
 */
export interface QuestionClauses {
  /** Filler words that carry no meaning for the SQL ("produce", "simply", "retrieve the details of"). */
  dismissed: Set<number>;
  /** Words of the output sentence and of the ordering/limit phrases: read here, not by the planner. */
  masked: Set<number>;
  /** "Return the id, the name and the cost": each item as a [start, end) word range. */
  outputs: Array<[number, number]>;
  /** "sorted by cost descending": the words naming what to sort by. */
  order?: { range: [number, number]; desc: boolean };
  /** "the first 10". */
  limit?: number;
  /** "without duplicates", "distinct", "unique". */
  distinct: boolean;
}

/** Words of how a question is put, never of what it asks. */
const FILLERS = new Set([
  'produce',
  'simply',
  'retrieve',
  'details',
  'please',
  'together',
  'single',
  'calculated',
  'meaning',
  'ever',
  'yet',
  'currently',
  'anyone',
  'anybody',
  'also',
]);
const ORDER_STARTS = new Set(['sorted', 'ordered', 'order', 'sort', 'ranked']);
const DESC = /^(descending|desc|highest|largest|biggest|most|best|latest|newest)$/;
const ASC = /^(ascending|asc|lowest|smallest|cheapest|least|earliest|oldest)$/;
const ITEM_STOP = new Set(['the', 'a', 'an', 'its', 'their', 'his', 'her', 'each', 'every', 's', 'of', 'both', 'also']);

export function parseClauses(words: readonly Word[]): QuestionClauses {
  const dismissed = new Set<number>();
  const masked = new Set<number>();
  const outputs: Array<[number, number]> = [];
  let order: QuestionClauses['order'];
  let limit: number | undefined;
  let distinct = false;
  const sentenceEnd = (from: number): number => {
    let i = from + 1;
    while (i < words.length && !words[i]!.sentenceStart) i++;
    return i;
  };
  const lw = (i: number): string => words[i]?.lower ?? '';

  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (FILLERS.has(w.lower)) dismissed.add(i);
    // "an ordered list", "a list of", "Return ..." at the very start: how to answer, not what.
    if (w.lower === 'list' || (w.lower === 'ordered' && lw(i + 1) === 'list')) dismissed.add(i);
    if ((w.lower === 'return' || w.lower === 'returning' || w.lower === 'show' || w.lower === 'give') && i === 0) dismissed.add(i);
    if (w.lower === 'without' && lw(i + 1) === 'duplicates') {
      distinct = true;
      masked.add(i).add(i + 1);
    }
    if ((w.lower === 'distinct' || w.lower === 'unique') && !['many', 'number'].includes(lw(i - 1)) && lw(i - 1) !== 'of') {
      distinct = true;
      masked.add(i);
    }
    if (w.lower === 'first' && words[i + 1]?.kind === 'number' && /^\d+$/.test(words[i + 1]!.text)) {
      limit = Number(words[i + 1]!.text);
      masked.add(i).add(i + 1);
    }
    // "sorted by cost descending", "ordered by month", "sorted by the number of loans, highest first".
    if (ORDER_STARTS.has(w.lower) && lw(i + 1) === 'by' && !order) {
      const end = Math.min(sentenceEnd(i), words.length);
      let stop = i + 2;
      while (stop < end && !words[stop]!.afterComma && !['in', 'descending', 'ascending', 'desc', 'asc', 'then'].includes(lw(stop))) stop++;
      let desc = false;
      let tail = stop;
      for (let k = stop; k < end; k++) {
        if (DESC.test(lw(k))) desc = true;
        if (DESC.test(lw(k)) || ASC.test(lw(k)) || ['in', 'order', 'first', 'to', 'then'].includes(lw(k))) tail = k + 1;
        else break;
      }
      order = { range: [i + 2, stop], desc };
      for (let k = i; k < tail; k++) masked.add(k);
    }
    // "Return the id, the name and the cost." as its own sentence (or after a comma): the output.
    if ((w.lower === 'return' || w.lower === 'returning') && i > 0 && (w.sentenceStart || w.afterComma)) {
      const end = sentenceEnd(i);
      let stop = i + 1;
      while (stop < end && !ORDER_STARTS.has(lw(stop)) && lw(stop) !== 'rounded') stop++;
      let start = i + 1;
      for (let k = i + 1; k <= stop; k++) {
        if (k === stop || lw(k) === 'and' || (words[k]!.afterComma && k > start)) {
          let a = start;
          while (a < k && ITEM_STOP.has(lw(a))) a++;
          if (a < k) outputs.push([a, k]);
          start = lw(k) === 'and' ? k + 1 : k;
        }
      }
      for (let k = i; k < stop; k++) masked.add(k);
      // "rounded to two decimal places": the generator rounds averages to two places already.
      if (lw(stop) === 'rounded') for (let k = stop; k < end; k++) masked.add(k);
    }
  }
  return { dismissed, masked, outputs, ...(order ? { order } : {}), ...(limit !== undefined ? { limit } : {}), distinct };
}
