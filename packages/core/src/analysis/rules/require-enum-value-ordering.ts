import { nodeBody, nodeKind } from '../ast';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** Enum values sort by declaration order; appending by default may give a wrong order. */
export const requireEnumValueOrdering: Rule = {
  name: 'require-enum-value-ordering',
  severity: 'warning',
  doc: 'ALTER TYPE ... ADD VALUE should say BEFORE or AFTER which value.',
  kinds: ['AlterEnumStmt'],
  check(ctx) {
    if (nodeKind(ctx.stmt.stmt) !== 'AlterEnumStmt') return NO_FINDINGS;
    const b = nodeBody(ctx.stmt.stmt);
    if (b.oldVal || b.newValNeighbor) return NO_FINDINGS;
    return [
      finding(
        this.name,
        `ADD VALUE '${b.newVal}' appends it at the end; enum comparisons and ORDER BY use declaration order.`,
        `ADD VALUE '${b.newVal}' BEFORE/AFTER '<existing value>'.`,
      ),
    ];
  },
};
