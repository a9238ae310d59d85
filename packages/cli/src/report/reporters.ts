import { gccReport } from './gcc';
import { githubReport } from './github';
import { gitlabReport } from './gitlab';
import { jsonReport } from './json';
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
