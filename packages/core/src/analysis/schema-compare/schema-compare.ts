import { SCHEMA_FINGERPRINT_SQL, SCOPED_FINGERPRINT_SQL } from './fingerprint-sql';

/**
 * A schema as comparable data: `"<kind> <schema.name>"` -> its definition in the server's own
 * words (see {@link SCHEMA_FINGERPRINT_SQL}). Two databases hold the same schema when their
 * fingerprints are equal; {@link compareSchemas} says what differs. Used by the sandbox to prove
 * a rollback (the clone before the migration against the clone after migration and rollback),
 * and meant for any "are these two schemas the same" question (two migrations' end states).
 */
export type SchemaFingerprint = ReadonlyMap<string, string>;

/** Anything that runs one query and returns its rows: a sandbox session, a `pg` client. */
export type FingerprintQuery = (
  sql: string,
  params?: unknown[],
) => Promise<{ rows: Array<{ kind: string; name: string; def: string; owner?: string | null }> }>;

/** Reads the fingerprint of the database `query` runs on (one catalog query). */
export async function readSchemaFingerprint(query: FingerprintQuery): Promise<SchemaFingerprint> {
  const out = new Map<string, string>();
  for (const r of (await query(SCHEMA_FINGERPRINT_SQL)).rows) out.set(`${r.kind} ${r.name}`, r.def ?? '');
  return out;
}

/** A fingerprint with each key's owner (see {@link SCOPED_FINGERPRINT_SQL}; null: read whole every time). */
export interface OwnedFingerprint {
  fingerprint: SchemaFingerprint;
  owners: ReadonlyMap<string, string | null>;
}

/**
 * Reads the fingerprint with its owners: whole, or with `owners` only the objects of those owners
 * and the rows read whole every time (schemas, extensions, policies).
 */
export async function readOwnedFingerprint(query: FingerprintQuery, owners?: readonly string[]): Promise<OwnedFingerprint> {
  const fingerprint = new Map<string, string>();
  const byKey = new Map<string, string | null>();
  const { rows } = owners ? await query(SCOPED_FINGERPRINT_SQL, [[...owners]]) : await query(SCHEMA_FINGERPRINT_SQL);
  for (const r of rows) {
    const key = `${r.kind} ${r.name}`;
    fingerprint.set(key, r.def ?? '');
    byKey.set(key, r.owner ?? null);
  }
  return { fingerprint, owners: byKey };
}

/** One object that differs between two fingerprints. */
export interface SchemaDifference {
  /** e.g. `function`, `index`, `column`, `table`. */
  kind: string;
  /** `schema.name`, `schema.table.column`, `schema.f(integer)`. */
  name: string;
  /** `missing`: in the expected schema only; `extra`: in the actual one only; `changed`: in both, defined differently. */
  change: 'missing' | 'extra' | 'changed';
  expected: string | null;
  actual: string | null;
}

/** What differs between the `expected` schema and the `actual` one, sorted by kind and name. */
export function compareSchemas(expected: SchemaFingerprint, actual: SchemaFingerprint): SchemaDifference[] {
  const out: SchemaDifference[] = [];
  const split = (key: string) => {
    // Kinds are one or two words ("materialized view"); names never start with a space.
    const m = /^(materialized view|partitioned table|foreign table|composite type|range type|\S+) (.*)$/s.exec(key)!;
    return { kind: m[1]!, name: m[2]! };
  };
  for (const [key, def] of expected) {
    const now = actual.get(key);
    if (now === undefined) out.push({ ...split(key), change: 'missing', expected: def, actual: null });
    else if (now !== def) out.push({ ...split(key), change: 'changed', expected: def, actual: now });
  }
  for (const [key, def] of actual) if (!expected.has(key)) out.push({ ...split(key), change: 'extra', expected: null, actual: def });
  return out.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind.localeCompare(b.kind)));
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 3)}...` : s);

/** Where two definitions part, with a little context: the words a reader needs, not both texts whole. */
function divergence(a: string, b: string): { was: string; now: string } {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, a.lastIndexOf(' ', Math.max(0, i - 20)) + 1);
  const flat = (s: string) => s.slice(from).replace(/\s+/g, ' ');
  return { was: clip(flat(a), 80), now: clip(flat(b), 80) };
}

/** One difference in words, e.g. `function public.f(integer) is missing`. */
export function describeDifference(d: SchemaDifference): string {
  if (d.change === 'missing') return `${d.kind} ${d.name} is missing`;
  if (d.change === 'extra') return `${d.kind} ${d.name} is left over`;
  const { was, now } = divergence(d.expected ?? '', d.actual ?? '');
  return `${d.kind} ${d.name} differs (was "${was}", now "${now}")`;
}
