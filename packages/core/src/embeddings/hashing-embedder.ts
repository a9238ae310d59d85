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

const FNV_PRIME = 0x01000193;

/** FNV-1a (32-bit) state after hashing `s`, continuing from state `h`: hashing a + b equals appending b to a's state. */
const fnvAppend = (h: number, s: string): number => {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
};

const FNV_OFFSET = 0x811c9dc5 | 0;
const WORD = fnvAppend(FNV_OFFSET, 'w:');
const BIGRAM = fnvAppend(FNV_OFFSET, 'b:');
const TRIGRAM = fnvAppend(FNV_OFFSET, 'c:');
const UNDERSCORE = '_'.charCodeAt(0);

/**
 * `(h >>> 0) % dim` in small-integer arithmetic: an unsigned 32-bit value above 2^31 is not a
 * small integer in V8, and `%` on it is a floating-point remainder, many times slower.
 */
const slotOf = (h: number, dim: number): number => (((h >>> 16) % dim) * (65536 % dim) + (h & 0xffff)) % dim;

/** The hashed features of one token, which depend on the token alone. */
interface TokenFeatures {
  /** FNV-1a state after "b:" + stem + "_": a bigram's hash continues from it with the next stem. */
  bigramPrefix: number;
  stem: string;
  /**
   * "w:" + stem, then each "c:" + character trigram of "#" + stem + "#", each as its vector slot
   * times two plus one when the hash's top bit makes the feature negative.
   */
  features: Int32Array;
}

function tokenFeatures(token: string, dim: number): TokenFeatures {
  const w = stem(token);
  const padded = `#${w}#`;
  const features = new Int32Array(1 + Math.max(0, padded.length - 2));
  const encode = (h: number): number => (slotOf(h, dim) << 1) | (h >>> 31);
  features[0] = encode(fnvAppend(WORD, w));
  for (let j = 0; j + 3 <= padded.length; j++) {
    let h = Math.imul(TRIGRAM ^ padded.charCodeAt(j), FNV_PRIME);
    h = Math.imul(h ^ padded.charCodeAt(j + 1), FNV_PRIME);
    features[j + 1] = encode(Math.imul(h ^ padded.charCodeAt(j + 2), FNV_PRIME));
  }
  return { bigramPrefix: Math.imul(fnvAppend(BIGRAM, w) ^ UNDERSCORE, FNV_PRIME), stem: w, features };
}

/**
 * Token features are the same in every text, and a document repeats its vocabulary thousands of
 * times, so they are computed once per token. Cleared when full rather than evicted one by one.
 */
const featureCache = new Map<string, TokenFeatures>();
const FEATURE_CACHE_MAX = 50_000;

function cachedFeatures(token: string): TokenFeatures {
  let f = featureCache.get(token);
  if (f === undefined) {
    if (featureCache.size >= FEATURE_CACHE_MAX) featureCache.clear();
    f = tokenFeatures(token, EMBEDDING_DIMENSION);
    featureCache.set(token, f);
  }
  return f;
}

/**
 * The Euclidean norm exactly as V8's `Math.hypot` computes it (scaled by the largest magnitude,
 * Kahan-compensated sum), which the stored vectors were normalised with; spreading 384 numbers
 * into `Math.hypot` cost more than the hashing itself.
 */
function hypot(v: Float64Array): number {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  if (max === 0) return 0;
  let sum = 0;
  let compensation = 0;
  for (let i = 0; i < v.length; i++) {
    const n = Math.abs(v[i]!) / max;
    const summand = n * n - compensation;
    const preliminary = sum + summand;
    compensation = preliminary - sum - summand;
    sum = preliminary;
  }
  return Math.sqrt(sum) * max;
}

/**
 * Offline, deterministic embedder: feature hashing of stemmed words, word bigrams and
 * character trigrams into a signed vector, L2-normalised. No network, same vector for the
 * same text on every machine, and texts that share identifiers land close together.
 *
 * Features are FNV-1a hashes of "w:" + word, "b:" + previous word + "_" + word and
 * "c:" + trigram of "#word#", added in that order per word (weights 1, 0.5, 0.25); the hashes
 * are computed incrementally and cached per token, without building the feature strings, which
 * gives the same vectors bit for bit as hashing the strings.
 */
export class HashingEmbedder implements Embedder {
  readonly model = 'dbops-hashing-v1';
  readonly dimension = EMBEDDING_DIMENSION;

  async embed(texts: readonly string[]): Promise<number[][]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): number[] {
    const dim = this.dimension;
    const v = new Float64Array(dim);
    let prev: TokenFeatures | null = null;
    // Per word: its own feature (weight 1), the bigram with the previous word (0.5), then its
    // trigrams (0.25), in this order, so the sums round exactly as they always have.
    for (const token of tokenize(text)) {
      const f = cachedFeatures(token);
      const { features } = f;
      let e = features[0]!;
      v[e >> 1]! += e & 1 ? -1 : 1;
      if (prev !== null) {
        const h = fnvAppend(prev.bigramPrefix, f.stem);
        v[slotOf(h, dim)]! += (h < 0 ? -1 : 1) * 0.5;
      }
      for (let k = 1; k < features.length; k++) {
        e = features[k]!;
        v[e >> 1]! += (e & 1 ? -1 : 1) * 0.25;
      }
      prev = f;
    }
    const norm = hypot(v) || 1;
    const out = new Array<number>(dim);
    for (let i = 0; i < dim; i++) out[i] = v[i]! / norm;
    return out;
  }
}

/** Cosine similarity of two normalised vectors. */
export const cosine = (a: readonly number[], b: readonly number[]): number => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

/** pgvector's text form of a vector, for parameters: "[0.1,0.2,...]". */
export const toPgVector = (v: readonly number[]): string => `[${v.join(',')}]`;
