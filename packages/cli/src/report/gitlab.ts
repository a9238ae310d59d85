import { createRequire } from 'node:module';
import type { ReportInput } from './report-input';

// node:crypto is loaded only when this reporter runs: it is among the costliest built-ins to start.
const nodeCrypto = (): typeof import('node:crypto') => createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');

const SEVERITY = { error: 'major', warning: 'minor', info: 'info' } as const;

/** GitLab Code Quality report (a JSON array of issues), for `artifacts: reports: codequality`. */
export function gitlabReport(input: ReportInput): string {
  const { createHash } = nodeCrypto();
  const issues = input.files.flatMap((f) =>
    f.findings.map((x) => ({
      description: x.safer ? `${x.message} Safer: ${x.safer}` : x.message,
      check_name: x.rule,
      // Stable across runs while the statement is unchanged, so GitLab can tell new issues from old.
      fingerprint: createHash('sha256').update(`${f.file}\0${x.rule}\0${x.statement}\0${x.message}`).digest('hex'),
      severity: SEVERITY[x.severity],
      location: { path: f.file, lines: { begin: x.line, end: Math.max(x.line, x.end_line) } },
    })),
  );
  return `${JSON.stringify(issues, null, 2)}\n`;
}
