import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { analyzeStatements } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import type { Rule } from './rule';

/**
 * Runs the given rules over a migration and returns their warnings in order, without the
 * sandbox: the entry point for rule tests and for linting from a CLI or CI.
 */
export async function lintStatements(sql: string, snapshot: SchemaSnapshot, rules: readonly Rule[]): Promise<string[]> {
  const parsed = await parseStatements(sql);
  return analyzeStatements(parsed, buildSchemaIndex(snapshot), { rules }).flatMap((s) => s.report.warnings);
}
