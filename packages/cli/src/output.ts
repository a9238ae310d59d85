import { appendFileSync, closeSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CliError, EXIT_CLEAN, EXIT_FINDINGS } from './cli-error';
import type { FailOn } from './config/cli-config';
import { SEVERITY_RANK } from './lint/cli-finding';
import { markdownReport } from './report/markdown';
import type { ReportInput } from './report/report-input';
import { batchedWriter } from './report/batched-writer';
import { fileWriter } from './report/file-writer';
import { type ReporterName, renderTo } from './report/reporters';
import type { RunContext } from './run-context';

export interface OutputOptions {
  reporter: ReporterName;
  /** Write the report here instead of stdout (`--output`). */
  output?: string;
  /** Also write the markdown report here (`--markdown-file`), e.g. for a pull-request comment. */
  markdownFile?: string;
  color: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
}

/** Output settings from the flags every reporting command takes (OUTPUT_OPTIONS) and the run's context. */
export function outputOptions(
  reporter: ReporterName,
  values: { output?: string; 'markdown-file'?: string; 'no-color'?: boolean },
  ctx: RunContext,
): OutputOptions {
  return {
    reporter,
    output: values.output,
    markdownFile: values['markdown-file'],
    color: !values['no-color'] && ctx.isTty && !ctx.env.NO_COLOR,
    cwd: ctx.cwd,
    env: ctx.env,
    stdout: ctx.stdout,
  };
}

/**
 * Prints the report, appends the markdown summary to `$GITHUB_STEP_SUMMARY` inside GitHub
 * Actions, and returns the exit code the findings call for.
 */
export function emit(input: ReportInput, failOn: FailOn, o: OutputOptions, extraFailure = false): number {
  // The report goes out in pieces (the JSON one is a single 2 MB string over lemmy's 342
  // migrations): see batched-writer.ts.
  const report = (flush: (text: string) => void): void => {
    const out = batchedWriter(flush);
    renderTo(o.reporter, input, o.color, out.write);
    out.end();
  };
  if (o.output) {
    let fd: number;
    try {
      fd = openSync(path.resolve(o.cwd, o.output), 'w');
    } catch (error) {
      throw new CliError(`cannot write ${o.output}: ${(error as Error).message}`);
    }
    try {
      const write = fileWriter(fd);
      report((text) => {
        try {
          write(text);
        } catch (error) {
          throw new CliError(`cannot write ${o.output}: ${(error as Error).message}`);
        }
      });
    } finally {
      closeSync(fd);
    }
  } else report(o.stdout);
  if (o.markdownFile) {
    try {
      writeFileSync(path.resolve(o.cwd, o.markdownFile), markdownReport(input));
    } catch (error) {
      throw new CliError(`cannot write ${o.markdownFile}: ${(error as Error).message}`);
    }
  }
  const summary = o.env.GITHUB_STEP_SUMMARY;
  if (o.env.GITHUB_ACTIONS === 'true' && summary) {
    try {
      appendFileSync(summary, markdownReport(input));
    } catch {
      // A summary we cannot write must not fail the check itself.
    }
  }
  if (failOn === 'none') return EXIT_CLEAN;
  const threshold = SEVERITY_RANK[failOn];
  const failing = input.files.some((f) => f.findings.some((x) => SEVERITY_RANK[x.severity] >= threshold));
  return failing || extraFailure ? EXIT_FINDINGS : EXIT_CLEAN;
}
