import { compareSchemas, describeDifference, type SchemaFingerprint } from '../schema-compare/schema-compare';
import type { SandboxEndState, SandboxResult } from '../types';

/** What the proof found: nothing (equivalent), or the differences in words. */
export interface ProofOutcome {
  equivalent: boolean;
  /** One sentence: what was compared, or what differs. */
  detail: string;
}

/** What a plan may leave differently from the original, by design (`SafePlanDraft.reordered`). */
export interface ProofAllowance {
  /** Tables (`schema.table`) whose column order the plan changes (an expand/contract swap): only the positions of their columns are not compared, and the change is reported. */
  reordered?: readonly string[];
}

/**
 * The original migration and its safe plan, each run by the sandbox on its own clone of the
 * snapshot with the same synthetic rows: equivalent when both passed and left the same schema
 * (every object of the schema fingerprint, in the server's own words) and the same rows in
 * every table.
 */
export function proveSafePlan(original: SandboxResult, plan: SandboxResult, allowance: ProofAllowance = {}): ProofOutcome {
  if (!plan.passed) return { equivalent: false, detail: `the plan did not pass the sandbox: ${plan.migration_error ?? 'a check failed'}` };
  const a = original.end_state;
  const b = plan.end_state;
  if (!a || !b) return { equivalent: false, detail: 'the sandbox could not read the end state of both runs' };
  return compareEndStates(a, b, allowance);
}

const POSITION = /^#(\d+) ?/;

/** The columns of `table` in a fingerprint, in their order (the fingerprint's `#n`). */
function columnOrder(schema: SchemaFingerprint, table: string): string[] {
  const prefix = `column ${table}.`;
  return [...schema]
    .filter(([k]) => k.startsWith(prefix) && !k.slice(prefix.length).includes('.'))
    .map(([k, def]) => ({ name: k.slice(prefix.length), at: Number(POSITION.exec(def)?.[1] ?? 0) }))
    .sort((x, y) => x.at - y.at)
    .map((c) => c.name);
}

/**
 * The fingerprint with the positions of the columns of `tables` taken out of their definitions
 * (everything else of them still compared), and for each such table whose order differs
 * between `a` and `b`, the change in words.
 */
function withoutPositions(
  a: SchemaFingerprint,
  b: SchemaFingerprint,
  tables: readonly string[],
): { a: SchemaFingerprint; b: SchemaFingerprint; changes: string[] } {
  const strip = (s: SchemaFingerprint) =>
    new Map(
      [...s].map(([k, def]) => [
        k,
        tables.some((t) => k.startsWith(`column ${t}.`) && !k.slice(`column ${t}.`.length).includes('.')) ? def.replace(POSITION, '') : def,
      ]),
    );
  const changes: string[] = [];
  for (const t of tables) {
    const [was, now] = [columnOrder(a, t), columnOrder(b, t)];
    if (was.join('\u0000') !== now.join('\u0000')) changes.push(`${t}: (${now.join(', ')}), was (${was.join(', ')})`);
  }
  return { a: strip(a), b: strip(b), changes };
}

export function compareEndStates(a: SandboxEndState, b: SandboxEndState, allowance: ProofAllowance = {}): ProofOutcome {
  const compared = withoutPositions(new Map(a.schema), new Map(b.schema), [...new Set(allowance.reordered ?? [])]);
  const schema = compareSchemas(compared.a, compared.b);
  const tables = [...new Set([...Object.keys(a.rows), ...Object.keys(b.rows)])].sort();
  const rows = tables.filter((t) => a.rows[t] !== b.rows[t]);
  if (schema.length || rows.length) {
    const parts = [
      ...schema.slice(0, 3).map(describeDifference),
      ...(schema.length > 3 ? [`${schema.length - 3} more schema difference(s)`] : []),
      ...(rows.length ? [`the rows of ${rows.slice(0, 3).join(', ')}${rows.length > 3 ? ` and ${rows.length - 3} more` : ''} differ`] : []),
    ];
    return { equivalent: false, detail: `the plan does not end where the original does: ${parts.join('; ')}` };
  }
  const order = compared.changes.length
    ? `; the column order changed, as the expand/contract swap does (the swapped column becomes the last): ${compared.changes.join('; ')}`
    : '';
  return {
    equivalent: true,
    detail: `the sandbox ran the original and the plan on two clones with the same synthetic rows: same schema (${a.schema.length} objects compared${compared.changes.length ? ', column positions aside' : ''}) and same rows (${tables.length} tables)${order}`,
  };
}
