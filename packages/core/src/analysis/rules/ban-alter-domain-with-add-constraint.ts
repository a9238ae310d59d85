import { nodeBody, nodeKind } from '../ast';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** ALTER DOMAIN ADD CONSTRAINT scans every column of every table using the domain. */
export const banAlterDomainWithAddConstraint: Rule = {
  name: 'ban-alter-domain-with-add-constraint',
  severity: 'error',
  doc: 'ALTER DOMAIN ... ADD CONSTRAINT scans every table using the domain.',
  kinds: ['AlterDomainStmt'],
  check(ctx) {
    if (nodeKind(ctx.stmt.stmt) !== 'AlterDomainStmt' || nodeBody(ctx.stmt.stmt).subtype !== 'C') return NO_FINDINGS;
    return [
      finding(
        this.name,
        'ALTER DOMAIN ... ADD CONSTRAINT checks every column of every table that uses the domain, under lock.',
        'ADD CONSTRAINT ... NOT VALID, then VALIDATE CONSTRAINT.',
      ),
    ];
  },
};
