import { gccReport } from './gcc';
import { githubReport } from './github';
import { gitlabReport } from './gitlab';
import { jsonReport, writeJsonReport } from './json';
import { markdownReport } from './markdown';
import type { ReportInput } from './report-input';
import { sarifReport } from './sarif';
import { ttyReport } from './tty';

export const REPORTERS = ['tty', 'gcc', 'json', 'sarif', 'gitlab', 'github', 'markdown'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export function render(name: ReporterName, input: ReportInput, color: boolean): string {
  switch (name) {
    case 'tty':
      return ttyReport(input, color);
    case 'gcc':
      return gccReport(input);
    case 'json':
      return jsonReport(input);
    case 'sarif':
      return sarifReport(input);
    case 'gitlab':
      return gitlabReport(input);
    case 'github':
      return githubReport(input);
    case 'markdown':
      return markdownReport(input);
  }
}

/**
 * The report handed to `write` in parts (the JSON document, then its final newline, without the
 * copy of the whole that appending it would make; the others whole): the same text as {@link render}.
 */
export function renderTo(name: ReporterName, input: ReportInput, color: boolean, write: (text: string) => void): void {
  if (name === 'json') writeJsonReport(input, write);
  else write(render(name, input, color));
}
