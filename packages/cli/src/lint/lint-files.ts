import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureParser, lintOffline } from '@dbops/core/analysis';
import { CliError } from '../cli-error';
import { type CliFinding, cliFinding, type FileReport, statementBody } from './cli-finding';
import { isIgnored, readIgnores } from './ignore-comments';
import type { FileOutcome, LintHelper } from './lint-helper';

export interface LintOptions {
  cwd: string;
  pgVersion?: number;
  assumeInTransaction?: boolean;
  excludedRules: ReadonlySet<string>;
}

export const displayPath = (cwd: string, file: string): string => path.relative(cwd, file).split(path.sep).join('/') || path.basename(file);

/** A syntax error as a finding (squawk's rule name), so every reporter shows it in place. */
function syntaxError(error: unknown, sql: string): CliFinding {
  const details = (error as { details?: { statement_index?: number; line?: number; parser_message?: string } }).details ?? {};
  const line = details.line ?? 1;
  return {
    rule: 'syntax-error',
    severity: 'error',
    message: details.parser_message ?? (error as Error).message,
    safer: null,
    statement_index: details.statement_index ?? 0,
    line,
    column: 1,
    end_line: line,
    statement: sql.split('\n')[line - 1] ?? '',
  };
}

/** Lints one file's text (no database): findings in file order, ignore comments applied. */
export function lintText(sql: string, options: Omit<LintOptions, 'cwd'>): CliFinding[] {
  const ignores = readIgnores(sql);
  if (ignores.file === 'all') return [];
  let result: ReturnType<typeof lintOffline>;
  try {
    result = lintOffline(sql, { pgVersion: options.pgVersion, assumeInTransaction: options.assumeInTransaction, excludedRules: options.excludedRules });
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQL_PARSE_ERROR') throw error;
    // A file of comments only is empty, not broken.
    if (/no SQL statement/.test((error as Error).message)) return [];
    return [syntaxError(error, sql)];
  }
  const out: CliFinding[] = [];
  for (const f of result.findings) {
    const stmt = result.statements[f.statement_index]!;
    if (isIgnored(ignores, f.rule, f.location.line, stmt.endLine)) continue;
    out.push(cliFinding(f, statementBody(stmt.sql), stmt.endLine));
  }
  return out;
}

/** Starts loading the parser now, so that it overlaps other work; {@link lintFiles} awaits it (and reports a failure). */
export function loadParser(): void {
  ensureParser().catch(() => {});
}

/** Lints one file from disk; a failure is returned, not thrown, so that it can cross threads. */
export function lintOne(file: string, options: LintOptions): FileOutcome {
  let sql: string;
  try {
    sql = readFileSync(file, 'utf8');
  } catch (error) {
    return { error: `cannot read ${file}: ${(error as Error).message}`, cli: true };
  }
  try {
    return { report: { file: displayPath(options.cwd, file), findings: lintText(sql, options) } };
  } catch (error) {
    return { error: (error as Error).stack ?? String(error), cli: false };
  }
}

function unwrap(outcome: FileOutcome): FileReport {
  if ('report' in outcome) return outcome.report;
  if (outcome.cli) throw new CliError(outcome.error);
  const error = new Error(outcome.error.split('\n')[0]);
  error.stack = outcome.error;
  throw error;
}

/**
 * Lints files from disk, in their order. With a helper thread (see lint-helper.ts) both threads
 * take the next file from one shared counter; the reports are put back in file order, and the
 * first failure in that order is the one thrown, as when one thread lints them all.
 */
export async function lintFiles(files: readonly string[], options: LintOptions, helper: LintHelper | null = null): Promise<FileReport[]> {
  const next = new Int32Array(new SharedArrayBuffer(4));
  const theirs =
    helper?.run({
      files,
      next,
      options: { cwd: options.cwd, pgVersion: options.pgVersion, assumeInTransaction: options.assumeInTransaction, excludedRules: [...options.excludedRules] },
    }) ?? Promise.resolve(new Map<number, FileOutcome>());
  await ensureParser();
  const outcomes: FileOutcome[] = new Array(files.length);
  for (let i = Atomics.add(next, 0, 1); i < files.length; i = Atomics.add(next, 0, 1)) outcomes[i] = lintOne(files[i]!, options);
  for (const [i, outcome] of await theirs) outcomes[i] = outcome;
  // A helper that died took files it never finished: lint those here.
  return files.map((file, i) => unwrap((outcomes[i] ??= lintOne(file, options))));
}
