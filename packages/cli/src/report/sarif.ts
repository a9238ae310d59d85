import type { Log, ReportingDescriptor, Result } from 'sarif';
import type { ReportInput } from './report-input';
import { ruleDocPath } from './report-input';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** SARIF 2.1.0, for GitHub code scanning and other SARIF viewers. */
export function sarifReport(input: ReportInput): string {
  const used = [...new Set(input.files.flatMap((f) => f.findings.map((x) => x.rule)))].sort();
  const rules: ReportingDescriptor[] = used.map((id) => {
    const meta = input.rules.get(id);
    return {
      id,
      name: id,
      shortDescription: { text: meta?.doc ?? (id === 'syntax-error' ? 'The file does not parse as PostgreSQL SQL.' : id) },
      help: { text: `See ${ruleDocPath(id)} in the dbops repository.` },
      defaultConfiguration: { level: LEVEL[meta?.severity ?? 'error'] },
    };
  });
  const index = new Map(used.map((id, i) => [id, i]));
  const results: Result[] = [];
  for (const f of input.files) {
    for (const x of f.findings) {
      results.push({
        ruleId: x.rule,
        ruleIndex: index.get(x.rule)!,
        level: LEVEL[x.severity],
        message: { text: x.safer ? `${x.message} Safer: ${x.safer}` : x.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: encodeURI(f.file) },
              region: { startLine: x.line, startColumn: x.column, endLine: Math.max(x.line, x.end_line) },
            },
          },
        ],
        properties: { statement_index: x.statement_index, ...(x.safer ? { safer: x.safer } : {}) },
      });
    }
  }
  const log: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'dbops', version: input.version, rules } }, results }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
