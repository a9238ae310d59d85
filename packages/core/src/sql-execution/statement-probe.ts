import { randomBytes } from 'node:crypto';
import type { ParsedStatement } from './parse-sql';
import type { CatalogQueryable } from './catalog-queryable';

/** Statement kinds a BEGIN ATOMIC body accepts. */
const PROBED_TYPES = new Set(['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

/** First server version with SQL-standard function bodies, whose dependencies the server records. */
const ATOMIC_BODY_MIN_VERSION = 140000;

type ProbeClient = CatalogQueryable & {
  query<R extends object>(config: { text: string; values: unknown[]; queryMode: 'extended' }): Promise<{ rows: R[] }>;
};

/**
 * Lets the target server resolve the statement: a temporary SQL function with the statement as
 * its BEGIN ATOMIC body is parse-analysed (nothing runs) and the server records in pg_depend the
 * functions, operators (including the implicit ones of `= ANY`, `IN`, `BETWEEN`, `CASE x WHEN`,
 * ORDER BY and GROUP BY), aggregates and relations the statement really uses, in this session's
 * search_path. `use` reads them (by the function's name in pg_temp) while it exists; then a savepoint rollback removes it.
 *
 * Returns null when the server cannot do this (before PostgreSQL 14, a statement kind a body
 * cannot hold, no TEMP privilege, or any error): the caller then resolves by name only.
 * Must run inside a read-write transaction. Without `serverVersionNum` the probe is tried (an
 * older server refuses the syntax, and the caller falls back).
 */
export async function withStatementProbe<T>(
  db: CatalogQueryable,
  statement: Pick<ParsedStatement, 'type' | 'node' | 'text'>,
  serverVersionNum: number | undefined,
  use: (probeName: string) => Promise<T>,
): Promise<{ value: T } | null> {
  if ((serverVersionNum ?? ATOMIC_BODY_MIN_VERSION) < ATOMIC_BODY_MIN_VERSION || !PROBED_TYPES.has(statement.type)) return null;
  if (statement.type === 'SelectStmt' && statement.node.intoClause) return null;
  const name = `dbops_probe_${randomBytes(6).toString('hex')}`;
  await db.query('SAVEPOINT dbops_probe');
  try {
    // Extended protocol: the server refuses a second command, so the statement text cannot end
    // the body early and smuggle one (it parsed as exactly one statement anyway). The newline
    // before ';' ends a trailing line comment.
    await (db as ProbeClient).query({
      text: `CREATE FUNCTION pg_temp.${name}() RETURNS void LANGUAGE sql BEGIN ATOMIC\n${statement.text}\n;\nEND`,
      values: [],
      queryMode: 'extended',
    });
    return { value: await use(name) };
  } catch (error) {
    if (isServerError(error)) return null;
    throw error;
  } finally {
    await db.query('ROLLBACK TO SAVEPOINT dbops_probe; RELEASE SAVEPOINT dbops_probe');
  }
}

/** An error the server sent (it has a SQLSTATE), as opposed to a lost connection. */
const isServerError = (e: unknown): boolean => typeof (e as { code?: unknown })?.code === 'string' && /^[0-9A-Z]{5}$/.test((e as { code: string }).code);
