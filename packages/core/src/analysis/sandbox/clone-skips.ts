import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { qualifiedName } from '../../introspection/schema-snapshot';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import type { DdlStep } from './clone-ddl';

/** An object the clone lacks: what it is, why, and the relation it belongs to when it has one. */
export interface SkippedCloneObject {
  /** `kind schema.name` as shown to the user, e.g. `index public.users_name_icu`. */
  object: string;
  /** PostgreSQL's message, or why the schema model cannot recreate it. */
  error: string;
  /** `schema.name` of the table or view it is or belongs to (a key, index, trigger, policy...). */
  relation?: string;
  /** Its own name without schema or arguments, to find it in a migration's text. */
  name: string;
}

const bareName = (object: string): string => object.replace(/\(.*$/, '').split('.').pop() ?? object;

/** A failed (or never generated) clone statement as the user sees it, tied to its relation. */
export function skippedObject(snapshot: SchemaSnapshot, step: Pick<DdlStep, 'object'> & { kind?: string }, error: string): SkippedCloneObject {
  const object = step.object;
  let relation: string | undefined;
  for (const t of snapshot.tables) {
    const q = qualifiedName(t);
    if (object === q || object.startsWith(`${q}.`) || (step.kind === 'index' && t.indexes.some((i) => `${t.schema}.${i.name}` === object))) {
      relation = q;
      break;
    }
  }
  return { object: step.kind ? `${step.kind} ${object}` : object, error, name: bareName(object), ...(relation ? { relation } : {}) };
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The skipped objects the migration uses: those of a relation it locks or changes, and types,
 * functions and other objects its text names. A migration that uses one cannot be judged by
 * the sandbox, and it says so instead of failing with "does not exist".
 */
export function skippedInUse(
  skipped: readonly SkippedCloneObject[],
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
): SkippedCloneObject[] {
  const touched = new Set(facts.flatMap((f) => [f.table, ...f.locks.map((l) => l.table)]).filter(Boolean));
  const text = parsed.map((p) => p.sql).join('\n');
  return skipped.filter((s) => {
    if (s.relation) return touched.has(s.relation);
    if (!s.name || s.name === 'schema') return false;
    return new RegExp(`(^|[^\\w$])"?${escape(s.name)}"?($|[^\\w$])`, 'i').test(text);
  });
}

/** `a (why); b (why); ...`, every object named, reasons for the first few. */
export function describeSkipped(skipped: readonly SkippedCloneObject[], withReasons = 10): string {
  return skipped.map((s, k) => (k < withReasons ? `${s.object}: ${s.error}` : s.object)).join('; ');
}
