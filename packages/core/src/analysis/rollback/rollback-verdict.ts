import type { RollbackProof } from '../sandbox/rollback-round-trip';
import { describeDifference, type SchemaDifference } from '../schema-compare/schema-compare';
import type { StatementFacts } from '../statement-facts';
import type { AffectedTable, RollbackPlan, ValidationResult } from '../types';

/** What the verdict needs of each statement: its text, facts and the tables it reaches. */
export interface VerdictStatement {
  index: number;
  sql: string;
  facts: StatementFacts;
  affected: readonly AffectedTable[];
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The bare name a difference is about: the object's own name (`f` of `public.f(integer)`, `c` of `public.t.c`). */
function ownName(d: SchemaDifference): string {
  const name = d.name.replace(/\(.*$/s, '');
  return name.split('.').pop() ?? name;
}

/** Whether a statement's text names `name` as a word (quoted or not, any case). */
const mentions = (sql: string, name: string): boolean => new RegExp(`(^|[^\\w$])"?${escape(name)}"?($|[^\\w$])`, 'i').test(sql);

const list = (items: readonly string[], max = 5): string =>
  items.length > max ? `${items.slice(0, max).join('; ')}; and ${items.length - max} more` : items.join('; ');

/**
 * Folds the sandbox's round trip into the plan: `verified` and `verification`, and every step
 * the round trip caught out (its undo failed, or left an object it touched different, or rows
 * missing from a table the plan claims to restore) becomes `reversible: false` with the reason,
 * so `has_irreversible` follows. A difference no statement explains makes the plan irreversible
 * as a whole. Returns the `rollback_round_trip` validation entry, or null when the proof did not run.
 */
export function applyRollbackProof(
  plan: RollbackPlan,
  proof: RollbackProof | null | undefined,
  statements: readonly VerdictStatement[],
  notRun: string,
): ValidationResult | null {
  if (proof === undefined || proof === null) {
    plan.verified = null;
    plan.verification =
      proof === null ? 'not verified: the round trip could not run in the sandbox (no time left in the run, or the sandbox failed)' : `not verified: ${notRun}`;
    return null;
  }
  const steps = new Map(plan.steps.map((s) => [s.statement_index, s]));
  const demote = (index: number, reason: string): void => {
    const s = steps.get(index);
    if (!s) return;
    s.reversible = false;
    s.warning = s.warning ? `${s.warning}; ${reason}` : reason;
  };
  if (proof.failure) {
    const at = proof.failure.statement_index;
    if (at !== null) demote(at, `its undo failed in the sandbox: ${proof.failure.message}`);
    plan.verified = false;
    plan.verification = `The rollback script failed in the sandbox${at === null ? '' : ` at the undo of statement ${at}`}: ${proof.failure.message}`;
    plan.has_irreversible = true;
    return { check: 'rollback_round_trip', passed: false, detail: plan.verification };
  }
  const irreversible = statements.filter((s) => steps.get(s.index)?.reversible === false);
  const touches = (s: VerdictStatement, table: string): boolean =>
    s.facts.table === table || s.affected.some((a) => a.table === table) || s.facts.locks.some((l) => l.table === table);
  const found: string[] = [];
  const unexplained: string[] = [];
  for (const d of proof.differences) {
    const words = describeDifference(d);
    found.push(words);
    const name = ownName(d);
    const by = statements.filter((s) => mentions(s.sql, name));
    if (by.some((s) => irreversible.includes(s))) continue; // already said: not restored
    if (!by.length) unexplained.push(words);
    for (const s of by) demote(s.index, `the round trip in the sandbox did not restore it: ${words}`);
  }
  for (const c of proof.rowCounts) {
    const words = `table ${c.table} had ${c.before} row(s) before the migration and ${c.after ?? 'no table'} after the rollback`;
    // A write to a partitioned table (or a parent) lands in its partitions (children).
    const reaches = (s: VerdictStatement): boolean => touches(s, c.table) || (c.via ?? []).some((t) => touches(s, t));
    // Tables an irreversible step writes or drops are not claimed back.
    if (irreversible.some(reaches)) continue;
    found.push(words);
    const by = statements.filter(reaches);
    if (!by.length) unexplained.push(words);
    for (const s of by) demote(s.index, `the round trip in the sandbox did not restore its rows: ${words}`);
  }
  plan.has_irreversible = plan.steps.some((s) => !s.reversible) || unexplained.length > 0;
  const compared = `${proof.compared.objects} object(s) and the row counts of ${proof.compared.tables} table(s)`;
  if (!found.length) {
    plan.verified = true;
    plan.verification = `The rollback script ran on the migrated sandbox clone and gave back the clone as it was before: ${compared} compared${irreversible.length ? ` (the rows of tables written by the irreversible steps ${irreversible.map((s) => s.index).join(', ')} are not claimed back)` : ''}`;
  } else {
    plan.verified = false;
    plan.verification = `The rollback script ran on the migrated sandbox clone but did not give it back as it was (${compared} compared): ${list(found)}${unexplained.length ? `; no statement of the migration explains ${unexplained.length} of these, so the plan as a whole is not reversible` : ''}`;
  }
  return { check: 'rollback_round_trip', passed: plan.verified, detail: plan.verification };
}
