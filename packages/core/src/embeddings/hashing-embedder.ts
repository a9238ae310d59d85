import { EMBEDDING_DIMENSION, type Embedder } from './embedder';

/** Splits identifiers and prose into lower-case word tokens: "orderItems" and "order_items" both give order, items. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1);
}

/** Crude English stemming so that "orders", "ordered" and "order" meet. */
export function stem(token: string): string {
  if (token.length > 4 && token.endsWith('ies')) return `${token.slice(0, -3)}y`;
  if (token.length > 4 && token.endsWith('ing')) return token.slice(0, -3);
  if (token.length > 3 && token.endsWith('ed')) return token.slice(0, -2);
  if (token.length > 3 && token.endsWith('es') && /(s|x|z|ch|sh)es$/.test(token)) return token.slice(0, -2);
  if (token.length > 3 && token.endsWith('s') && !token.endsWith('ss')) return token.slice(0, -1);
  return token;
}

const fnv1a = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

/**
 * Offline, deterministic embedder: feature hashing of stemmed words, word bigrams and
 * character trigrams into a signed vector, L2-normalised. No network, same vector for the
 * same text on every machine, and texts that share identifiers land close together.
 */
export class HashingEmbedder implements Embedder {
  readonly model = 'dbops-hashing-v1';
  readonly dimension = EMBEDDING_DIMENSION;

  async embed(texts: readonly string[]): Promise<number[][]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): number[] {
    const v = new Float64Array(this.dimension);
    const add = (feature: string, weight: number): void => {
      const h = fnv1a(feature);
      v[h % this.dimension]! += (h & 0x80000000 ? -1 : 1) * weight;
    };
    const words = tokenize(text).map(stem);
    words.forEach((w, i) => {
      add(`w:${w}`, 1);
      if (i > 0) add(`b:${words[i - 1]}_${w}`, 0.5);
      const padded = `#${w}#`;
      for (let j = 0; j + 3 <= padded.length; j++) add(`c:${padded.slice(j, j + 3)}`, 0.25);
    });
    const norm = Math.hypot(...v) || 1;
    return Array.from(v, (x) => x / norm);
  }
}

/** Cosine similarity of two normalised vectors. */
export const cosine = (a: readonly number[], b: readonly number[]): number => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

/** pgvector's text form of a vector, for parameters: "[0.1,0.2,...]". */
export const toPgVector = (v: readonly number[]): string => `[${v.join(',')}]`;
