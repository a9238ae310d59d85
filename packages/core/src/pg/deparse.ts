import { Deparser } from 'pgsql-deparser';
import type { AstNode } from './ast';

type TypeCastNode = Parameters<Deparser['TypeCast']>[0];
type Context = Parameters<Deparser['TypeCast']>[1];

/**
 * pgsql-deparser 17.9 writes a cast of a call in SQL syntax (`x AT TIME ZONE 'UTC'`, whose parse
 * node is a call of `timezone` marked COERCE_SQL_SYNTAX) as `x AT TIME ZONE 'UTC'::date`, which
 * PostgreSQL reads as a cast of the zone name: the statement fails (`invalid input syntax for
 * type date: "UTC"`) or, for a type the literal casts to, means something else. Set AI's
 * aggregating INSERT grouped by such a cast could not be planned and was priced at 0 ms for
 * 4.9 s. The cast's operand is written in parentheses here; every other node as the library
 * writes it.
 */
class ParenthesizingDeparser extends Deparser {
  override TypeCast(node: TypeCastNode, context: Context): string {
    const text = super.TypeCast(node, context);
    const call = (node.arg as { FuncCall?: { funcformat?: string } } | undefined)?.FuncCall;
    if (call?.funcformat !== 'COERCE_SQL_SYNTAX') return text;
    const operand = this.visit(node.arg!, context);
    return text.startsWith(`${operand}::`) ? `(${operand})${text.slice(operand.length)}` : text;
  }
}

/** SQL text of a statement or expression node, written by pgsql-deparser (quoting included). */
export const deparse = (node: AstNode): string => new ParenthesizingDeparser(node as never).deparseQuery();
