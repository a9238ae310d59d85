import { analyzeStatements } from '../../packages/core/src/analysis/analyze-statements';
import { parseStatements } from '../../packages/core/src/analysis/parse-statements';
import { runSandbox, type SandboxOptions } from '../../packages/core/src/analysis/sandbox/run-sandbox';
import { buildSchemaIndex } from '../../packages/core/src/analysis/schema-index';
import type { SchemaSnapshot } from '../../packages/core/src/introspection/schema-snapshot';

/** The sandbox on a migration's text, fed as the analysis feeds it: parsed statements, their facts and affected tables (no rules). */
export async function sandboxOnText(snapshot: SchemaSnapshot, text: string, options: SandboxOptions = {}): ReturnType<typeof runSandbox> {
  const parsed = await parseStatements(text);
  const items = analyzeStatements(parsed, buildSchemaIndex(snapshot), { rules: [] });
  return runSandbox(
    snapshot,
    parsed,
    items.map((i) => i.facts),
    items.map((i) => i.report.affected_tables),
    options,
  );
}
