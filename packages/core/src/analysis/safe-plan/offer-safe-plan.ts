import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { analyzeMigrationDetailed, type MigrationAnalysis } from '../analyze-migration';
import type { SandboxOptions } from '../sandbox/run-sandbox';
import { buildSchemaIndex } from '../schema-index';
import { draftSafePlan, type SafePlanDraft } from './draft-safe-plan';
import { type ProofOutcome, proveSafePlan } from './prove-safe-plan';
import type { BatchingOptions } from './rewrites/rewrite-context';
import type { SafePlan } from './types';

/** The report's `safe_plan` and `safe_plan_reason`. */
export interface SafePlanOffer {
  safe_plan: SafePlan | null;
  /** Why there is no plan, when the migration needed one; null when it needs none or a plan is offered. */
  safe_plan_reason: string | null;
}

/**
 * A safe plan for an analysed migration that passed its sandbox, offered only when proved: the
 * draft (`draftSafePlan`), then the original and the plan each run on a clone with their end
 * states read, compared (`proveSafePlan`), and a token issued for the plan's exact text.
 */
export async function offerSafePlan(input: {
  analysis: MigrationAnalysis;
  snapshot: SchemaSnapshot;
  connectionId: string;
  sandbox: SandboxOptions;
  /** What a batched UPDATE/DELETE step is offered with; the executor's defaults when absent. */
  batching?: BatchingOptions;
  /** Rows from which a scan, rewrite, index build or UPDATE/DELETE of a table needs a plan (`write-blocking.ts`); its default when absent. */
  largeTableRows?: number;
  /** Epoch ms by which the proof must be over: past it the plan is not offered (the answer must fit the gateway's window). */
  proofBy?: number;
  issueToken(sql: string): Promise<string>;
}): Promise<SafePlanOffer> {
  const { analysis, snapshot } = input;
  const out = draftSafePlan(
    analysis.parsed,
    analysis.items.map((i) => i.facts),
    analysis.report.statements,
    buildSchemaIndex(snapshot),
    input.batching,
    input.largeTableRows,
  );
  if (!out.draft) return { safe_plan: null, safe_plan_reason: out.reason };
  const draft = out.draft;
  // Abandoned when late, so it must never reject unhandled; a proof that cannot run offers nothing.
  const proved = proveDraft(input, draft).catch((e: unknown): ProofOutcome => ({
    equivalent: false,
    detail: `the proof could not run (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`,
  }));
  const late = input.proofBy === undefined ? null : new Promise<'late'>((r) => setTimeout(() => r('late'), Math.max(0, input.proofBy! - Date.now())).unref());
  const proof = await (late ? Promise.race([proved, late]) : proved);
  if (proof === 'late')
    return {
      safe_plan: null,
      safe_plan_reason: 'a safe plan was drafted but its proof did not finish within the time of this request; analyze again when the sandbox is less busy',
    };
  if (!proof.equivalent) return { safe_plan: null, safe_plan_reason: `a safe plan was drafted but not offered: ${proof.detail}` };
  return {
    safe_plan: {
      steps: draft.steps,
      combined_script: draft.combined_script,
      approval_token: await input.issueToken(draft.combined_script),
      equivalent: true,
      explanation: `${draft.rewrites.join('; ')}. Proved: ${proof.detail}.`,
    },
    safe_plan_reason: null,
  };
}

/** Runs the original and the draft on two clones and compares their end states. */
async function proveDraft(
  input: { analysis: MigrationAnalysis; snapshot: SchemaSnapshot; connectionId: string; sandbox: SandboxOptions },
  draft: SafePlanDraft,
): Promise<ProofOutcome> {
  const { analysis, snapshot } = input;
  const runBoth = (options: SandboxOptions) =>
    Promise.all([
      analysis.rerunSandbox(options),
      analyzeMigrationDetailed(draft.combined_script, snapshot, { connectionId: input.connectionId, sandbox: options }).then((a) => a.report.sandbox_result),
    ]);
  const captureEndState = { volatileColumns: draft.volatile };
  let [original, plan] = await runBoth({ ...input.sandbox, captureEndState });
  // The analysis passed, so where the original fails on the synthetic rows the preflight proved
  // the live rows and the analysis judged an empty clone (live-checks.ts): the proof does the same.
  if (!original.passed) [original, plan] = await runBoth({ ...input.sandbox, captureEndState, rowsPerTable: 0 });
  return proveSafePlan(original, plan, { reordered: draft.reordered });
}
