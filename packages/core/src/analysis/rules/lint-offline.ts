import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { ensureParser, parseStatementsSync } from '../parse-statements';
import { resolveNames } from '../resolve-names';
import { runRules, type StatementFindings } from '../rule-pass';
import { buildSchemaIndex, type SchemaIndex } from '../schema-index';
import { type StatementFacts, statementFacts } from '../statement-facts';
import type { Finding } from '../types';
import { RULES } from './index';
import { findingText, type Rule } from './rule';

export interface OfflineLintOptions {
  /** PostgreSQL major version the migrations target (squawk's `pg_version`); default 17. */
  pgVersion?: number;
  /** The tool runs each file in a transaction (squawk's `assume_in_transaction`). */
  assumeInTransaction?: boolean;
  /** Rule ids to leave out. */
  excludedRules?: ReadonlySet<string>;
}

/** One statement's place in the file, for ignore comments and excerpts. */
export interface LintedStatement {
  index: number;
  sql: string;
  /** 1-based line of the statement's text (leading comments included). */
  line: number;
}

/** 1-based line of a statement's last character (asked only of statements with findings). */
export function lastLine(s: LintedStatement): number {
  let line = s.line;
  for (let i = s.sql.indexOf('\n'); i >= 0; i = s.sql.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The findings in statement order, a finding repeated within its statement (same rule, message
 * and safer alternative) kept once: the report's findings (collectFindings), without writing a
 * warning text for each finding to tell them apart, only where a statement has more than one.
 */
function distinctFindings(perStatement: readonly StatementFindings[]): Finding[] {
  const out: Finding[] = [];
  for (let i = 0; i < perStatement.length; i++) {
    const findings = perStatement[i]!.findings;
    if (findings.length === 1) out.push(findings[0]!);
    else if (findings.length > 1) {
      const seen = new Set<string>();
      for (const f of findings) {
        const text = findingText(f);
        if (seen.has(text)) continue;
        seen.add(text);
        out.push(f);
      }
    }
  }
  return out;
}

/** The rules that mean something without a live schema (everything but `live` ones). */
export const OFFLINE_RULES: readonly Rule[] = RULES.filter((r) => !r.live);

const emptySnapshot = (pgVersion: number): SchemaSnapshot => ({
  snapshot_id: '00000000-0000-4000-8000-000000000000',
  connection_id: '00000000-0000-4000-8000-000000000000',
  introspected_at: new Date(0).toISOString(),
  server_version: `${pgVersion}.0`,
  server_version_num: pgVersion * 10_000,
  extensions: [],
  schemas: ['public'],
  tables: [],
  enums: [],
  sequences: [],
  view_dependencies: [],
});

/** One index per target version, built once: a CLI run lints hundreds of files against the same empty schema. */
const emptyIndexes = new Map<number, SchemaIndex>();
const emptyIndex = (pgVersion: number): SchemaIndex => {
  let idx = emptyIndexes.get(pgVersion);
  if (!idx) emptyIndexes.set(pgVersion, (idx = buildSchemaIndex(emptySnapshot(pgVersion))));
  return idx;
};

export { ensureParser };

// A CLI run lints every file with the same excluded rules: one rule list for all of them, which
// also keeps runRules' per-kind lists (cached per rule list) built once rather than per file.
let rulesFor: { excluded: ReadonlySet<string>; names: Set<string>; rules: readonly Rule[] } | undefined;

const sameNames = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => {
  if (a.size !== b.size) return false;
  for (const n of a) if (!b.has(n)) return false;
  return true;
};

/** The offline rules without the excluded ones. */
function offlineRules(excluded: ReadonlySet<string> | undefined): readonly Rule[] {
  if (!excluded || excluded.size === 0) return OFFLINE_RULES;
  // The same set with the same names as last time (a caller may have changed it since).
  if (rulesFor?.excluded !== excluded || !sameNames(excluded, rulesFor.names))
    rulesFor = { excluded, names: new Set(excluded), rules: OFFLINE_RULES.filter((r) => !excluded.has(r.name)) };
  return rulesFor.rules;
}

/**
 * Lints one migration file with no database: tables the file does not create count as existing
 * (as squawk assumes), and rules needing table sizes or the catalog are left out. Call
 * {@link ensureParser} once first. Throws SQL_PARSE_ERROR (AppError) on a syntax error.
 */
export function lintOffline(sql: string, options: OfflineLintOptions = {}): { statements: LintedStatement[]; findings: Finding[] } {
  const parsed = parseStatementsSync(sql);
  const rules = offlineRules(options.excludedRules);
  const schema = emptyIndex(options.pgVersion ?? 17);
  // The rules' part of analyzeStatements only: no lock times, blast radius, risk or rollback,
  // which no offline rule reads (and whose modules a CLI run would otherwise load).
  resolveNames(parsed, schema);
  const facts: StatementFacts[] = [];
  for (let i = 0; i < parsed.length; i++) facts.push(statementFacts(parsed[i]!, schema));
  const perStatement = runRules(parsed, facts, schema, {
    rules,
    assumeExisting: true,
    assumeInTransaction: options.assumeInTransaction ?? false,
    warningTexts: false,
  });
  return { statements: parsed, findings: distinctFindings(perStatement) };
}
