import { compareSchemas, describeDifference } from '../schema-compare/schema-compare';
import type { SandboxEndState, SandboxResult } from '../types';

/** What the proof found: nothing (equivalent), or the differences in words. */
export interface ProofOutcome {
  equivalent: boolean;
  /** One sentence: what was compared, or what differs. */
  detail: string;
}

/**
 * The original migration and its safe plan, each run by the sandbox on its own clone of the
 * snapshot with the same synthetic rows: equivalent when both passed and left the same schema
 * (every object of the schema fingerprint, in the server's own words) and the same rows in
 * every table.
 */
export function proveSafePlan(original: SandboxResult, plan: SandboxResult): ProofOutcome {
  if (!plan.passed) return { equivalent: false, detail: `the plan did not pass the sandbox: ${plan.migration_error ?? 'a check failed'}` };
  const a = original.end_state;
  const b = plan.end_state;
  if (!a || !b) return { equivalent: false, detail: 'the sandbox could not read the end state of both runs' };
  return compareEndStates(a, b);
}

export function compareEndStates(a: SandboxEndState, b: SandboxEndState): ProofOutcome {
  const schema = compareSchemas(new Map(a.schema), new Map(b.schema));
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
  return {
    equivalent: true,
    detail: `the sandbox ran the original and the plan on two clones with the same synthetic rows: same schema (${a.schema.length} objects compared) and same rows (${tables.length} tables)`,
  };
}
