import { nodeBody, nodeKind, rangeVarName } from '../ast';
import { finding, NO_FINDINGS, type Rule } from './rule';

const CREATES = new Set(['CreateStmt', 'CreateTableAsStmt', 'ViewStmt']);

/** The statement targets a table that neither the snapshot nor earlier statements know: stale snapshot or typo. */
export const unknownTable: Rule = {
  name: 'unknown-table',
  severity: 'error',
  live: true,
  doc: 'A statement altering a table that is not in the schema snapshot nor created earlier in the migration.',
  check(ctx) {
    const t = ctx.facts.table;
    if (!t || CREATES.has(nodeKind(ctx.stmt.stmt)) || ctx.schema.table(t)) return NO_FINDINGS;
    const created = ctx.previous.some(
      ({ stmt, facts }) =>
        facts.table === t &&
        (CREATES.has(nodeKind(stmt.stmt)) || (nodeKind(stmt.stmt) === 'RenameStmt' && `${t.split('.')[0]}.${nodeBody(stmt.stmt).newname}` === t)),
    );
    const renamedTo = ctx.previous.some(
      ({ stmt }) =>
        nodeKind(stmt.stmt) === 'RenameStmt' &&
        nodeBody(stmt.stmt).renameType === 'OBJECT_TABLE' &&
        `${rangeVarName(nodeBody(stmt.stmt).relation).split('.')[0]}.${nodeBody(stmt.stmt).newname}` === t,
    );
    if (created || renamedTo) return NO_FINDINGS;
    return [
      finding(
        this.name,
        `${t} is not in the schema snapshot${ctx.facts.statement_type.startsWith('DROP') ? '' : ''}; the statement fails unless the snapshot is stale.`,
        'check the name, or re-run introspection if the schema changed.',
      ),
    ];
  },
};
