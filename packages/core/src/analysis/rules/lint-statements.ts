import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { analyzeStatements, type LintSettings } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { reportFindings } from '../report-findings';
import { buildSchemaIndex } from '../schema-index';
import type { Finding } from '../types';
import type { Rule } from './rule';

/**
 * Runs the given rules over a migration and returns their warnings in order, without the
 * sandbox: the entry point for rule tests.
 */
export async function lintStatements(sql: string, snapshot: SchemaSnapshot, rules: readonly Rule[]): Promise<string[]> {
  const parsed = await parseStatements(sql);
  return analyzeStatements(parsed, buildSchemaIndex(snapshot), { rules }).flatMap((s) => s.report.warnings);
}

/** The structured findings of a migration (as the report's `findings`), without the sandbox. */
export async function lintFindings(sql: string, snapshot: SchemaSnapshot, settings: LintSettings = {}): Promise<Finding[]> {
  const parsed = await parseStatements(sql);
  return reportFindings(analyzeStatements(parsed, buildSchemaIndex(snapshot), settings)).findings;
}
