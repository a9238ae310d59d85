import { RUN_ROLE_PREFIX } from './run-role-sql';

/**
 * Which of the target's roles a migration needs in the sandbox (docs/migration-analysis.md,
 * "Roles of the target"): both engines make them for the run, the embedded one as
 * `mirror-roles.ts` describes, PGlite in its private instance.
 */

/** Names the sandbox owns or PostgreSQL reserves: never made or dropped as a mirror. */
const RESERVED = /^(pg_|dbops_)/i;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The target's roles (`SchemaSnapshot.role_names`) whose name the migration's text holds as a
 * word: in an identifier, a quoted identifier or a string a DO block runs, so dynamic SQL counts.
 * Case-insensitive, so an unquoted name folded to lower case matches; a name matched by accident
 * costs one idle role for the run.
 */
export function rolesNamedBy(targetRoles: readonly string[] | undefined, texts: readonly string[]): string[] {
  if (!targetRoles?.length) return [];
  const text = texts.join('\n');
  return [...new Set(targetRoles)]
    .filter((name) => name.length > 0 && !RESERVED.test(name) && !name.startsWith(RUN_ROLE_PREFIX))
    .filter((name) => new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`, 'i').test(text))
    .sort();
}
