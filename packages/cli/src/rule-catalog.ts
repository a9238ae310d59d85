import { RULES } from '@dbops/core/analysis';

/** Every rule's one-line doc and severity, for reporters that describe rules. */
export const ruleCatalog = (): Map<string, { doc: string; severity: 'error' | 'warning' | 'info' }> =>
  new Map(RULES.map((r) => [r.name, { doc: r.doc, severity: r.severity }]));
