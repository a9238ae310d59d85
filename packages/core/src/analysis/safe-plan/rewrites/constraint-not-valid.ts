import { deparse } from '../../../pg/deparse';
import { quoteIdent, quoteQualified } from '../../../pg/quote';
import { type AstNode, names, nodeKind, walk } from '../../ast';
import { defaultObjectName } from '../names';
import { CATALOG_MS, onlySubcommand, type RewriteContext, type RewriteRule, scanMs } from './rewrite-context';

const constraintOf = (ctx: RewriteContext): AstNode | null => {
  if (nodeKind(ctx.stmt.stmt) !== 'AlterTableStmt') return null;
  const cmd = onlySubcommand(ctx);
  const con = cmd?.subtype === 'AT_AddConstraint' ? (cmd.def?.Constraint as AstNode | undefined) : undefined;
  return con && (con.contype === 'CONSTR_FOREIGN' || con.contype === 'CONSTR_CHECK') && !con.skip_validation ? con : null;
};

/** Distinct column names a CHECK expression reads. */
function checkColumns(expr: AstNode): string[] {
  const out = new Set<string>();
  walk(expr, (n) => {
    const fields = n.ColumnRef?.fields as AstNode[] | undefined;
    if (fields?.length) out.add(String(fields[fields.length - 1]!.String?.sval ?? ''));
  });
  return [...out].filter(Boolean);
}

/** The name PostgreSQL gives an unnamed FOREIGN KEY or CHECK of `table`. */
export function constraintName(table: string, con: AstNode): string {
  if (con.conname) return String(con.conname);
  if (con.contype === 'CONSTR_FOREIGN') return defaultObjectName(table, names(con.fk_attrs), 'fkey');
  const cols = checkColumns(con.raw_expr as AstNode);
  return defaultObjectName(table, cols.length === 1 ? cols : [], 'check');
}

/**
 * `ADD FOREIGN KEY` / `ADD CHECK` -> `ADD ... NOT VALID` (a catalog change: milliseconds under
 * its lock), then `VALIDATE CONSTRAINT` in its own transaction, which scans under SHARE UPDATE
 * EXCLUSIVE (ROW SHARE on the referenced table): reads and writes go on during the scan.
 */
export const constraintNotValid: RewriteRule = {
  name: 'constraint-not-valid',
  applies: (ctx) => constraintOf(ctx) !== null,
  rewrite(ctx) {
    const node = structuredClone(ctx.stmt.stmt) as AstNode;
    const con = node.AlterTableStmt.cmds[0].AlterTableCmd.def.Constraint as AstNode;
    const relname = String(node.AlterTableStmt.relation?.relname ?? '');
    con.conname = constraintName(relname, con);
    con.skip_validation = true;
    con.initially_valid = false;
    const fk = con.contype === 'CONSTR_FOREIGN';
    return {
      steps: [
        { sql: deparse(node), transactional: true, lock_type: fk ? 'SHARE ROW EXCLUSIVE' : 'ACCESS EXCLUSIVE', lock_duration_ms: CATALOG_MS, batched: false },
        {
          sql: `ALTER TABLE ${quoteQualified(ctx.facts.table)} VALIDATE CONSTRAINT ${quoteIdent(String(con.conname))}`,
          transactional: true,
          lock_type: 'SHARE UPDATE EXCLUSIVE',
          lock_duration_ms: scanMs(ctx),
          batched: false,
        },
      ],
      explanation: `statement ${ctx.stmt.index}: the ${fk ? 'foreign key' : 'CHECK'} is added NOT VALID, then validated in its own transaction (SHARE UPDATE EXCLUSIVE: writes continue during the scan)`,
    };
  },
};
