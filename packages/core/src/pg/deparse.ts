import { deparseSync } from 'pgsql-deparser';
import type { AstNode } from './ast';

/** SQL text of a statement or expression node, written by pgsql-deparser (quoting included). */
export const deparse = (node: AstNode): string => deparseSync(node as never);
