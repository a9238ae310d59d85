import { stem } from '../../embeddings/hashing-embedder';

/** One word of the question; quoted strings and numbers stay whole. */
export interface Word {
  /** As written. */
  text: string;
  lower: string;
  /** Stemmed and mapped through {@link SYNONYMS}. */
  stem: string;
  index: number;
  kind: 'word' | 'number' | 'quoted' | 'date';
  /** First word of a sentence: its capital says nothing about a name ("Return the ..."). */
  sentenceStart?: boolean;
  /** A comma stands between this word and the one before ("the id, name and cost"). */
  afterComma?: boolean;
}

/** Words people use for the same thing, mapped to the stem a schema most likely uses. */
const SYNONYMS: Record<string, string> = {
  client: 'customer',
  buyer: 'customer',
  purchase: 'order',
  staff: 'employee',
  worker: 'employee',
  cost: 'price',
  revenue: 'amount',
  sale: 'amount',
  spend: 'amount',
  spent: 'amount',
  earn: 'amount',
  made: 'creat',
  placed: 'creat',
  creat: 'creat',
};

// A quote after a letter is an apostrophe ("member's", "don't"), not the start of a quoted string.
const TOKEN = /(?<![A-Za-z])'([^']*)'(?![A-Za-z])|"([^"]*)"|(\d{4}-\d{2}-\d{2})|\$?(\d+(?:\.\d+)?)|([A-Za-z][A-Za-z0-9_]*)/g;

export function questionWords(question: string): Word[] {
  const out: Word[] = [];
  let last = 0;
  for (const m of question.matchAll(TOKEN)) {
    const index = out.length;
    const between = question.slice(last, m.index);
    last = (m.index ?? 0) + m[0].length;
    const sentenceStart = index === 0 || /[.?!;:]/.test(between);
    const afterComma = between.includes(',');
    if (m[1] !== undefined || m[2] !== undefined) {
      const text = m[1] ?? m[2] ?? '';
      out.push({ text, lower: text.toLowerCase(), stem: text.toLowerCase(), index, kind: 'quoted', sentenceStart, afterComma });
    } else if (m[3] !== undefined) {
      out.push({ text: m[3], lower: m[3], stem: m[3], index, kind: 'date', sentenceStart, afterComma });
    } else if (m[4] !== undefined) {
      out.push({ text: m[4], lower: m[4], stem: m[4], index, kind: 'number', sentenceStart, afterComma });
    } else if (m[5] !== undefined) {
      const lower = m[5].toLowerCase();
      const s = stem(lower);
      out.push({ text: m[5], lower, stem: SYNONYMS[s] ?? SYNONYMS[lower] ?? s, index, kind: 'word', sentenceStart, afterComma });
    }
  }
  return out;
}

/** Stems of an identifier: `order_items` and `orderItems` both give ["order", "item"]. */
export function identifierStems(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => SYNONYMS[stem(w)] ?? stem(w));
}

/** Words that carry no schema meaning. */
export const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'in',
  'on',
  'for',
  'to',
  'by',
  'with',
  'and',
  'or',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'do',
  'doe',
  'did',
  'how',
  'many',
  'much',
  'what',
  'which',
  'who',
  'whose',
  'where',
  'when',
  'show',
  'list',
  'give',
  'me',
  'find',
  'get',
  'all',
  'each',
  'every',
  'per',
  'there',
  'their',
  'that',
  'than',
  'from',
  'at',
  'as',
  'it',
  'its',
  'have',
  'ha',
  'had',
  'has',
  'number',
  'count',
  'total',
  'sum',
  'average',
  'avg',
  'mean',
  'maximum',
  'max',
  'minimum',
  'min',
  'highest',
  'lowest',
  'largest',
  'smallest',
  'most',
  'least',
  'top',
  'more',
  'less',
  'fewer',
  'greater',
  'over',
  'under',
  'above',
  'below',
  'at',
  'least',
  'last',
  'day',
  'week',
  'month',
  'year',
  'this',
  'since',
  'before',
  'after',
  'between',
  'ago',
  'today',
  'yesterday',
  'please',
  'can',
  'you',
  'i',
  'we',
  'our',
  'my',
  'any',
  'some',
  'not',
  'no',
  'only',
  'one',
  'ones',
  'them',
  'they',
  'recent',
  'during',
  'exactly',
  'equal',
  'order',
  'group',
  'descending',
  'ascending',
  'sorted',
  'sort',
  'biggest',
  'cheapest',
  'expensive',
  'name',
  'named',
  'called',
  'value',
  'amount',
]);
