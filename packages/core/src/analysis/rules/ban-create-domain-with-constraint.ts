import { nodeBody, nodeKind } from '../ast';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** Domain constraints cannot be added NOT VALID on every use and are hard to change later. */
export const banCreateDomainWithConstraint: Rule = {
  name: 'ban-create-domain-with-constraint',
  severity: 'warning',
  doc: 'Put CHECK constraints on tables, not on domains.',
  kinds: ['CreateDomainStmt'],
  check(ctx) {
    if (nodeKind(ctx.stmt.stmt) !== 'CreateDomainStmt' || !(nodeBody(ctx.stmt.stmt).constraints ?? []).length) return NO_FINDINGS;
    return [
      finding(
        this.name,
        'A domain with constraints is checked on every column using it; changing it later scans all of them.',
        'a plain type plus table-level CHECK constraints.',
      ),
    ];
  },
};
