/**
 * squawk's rule names that differ from dbops's ids. Every other squawk name is the dbops id as
 * is. `prefer-timestamp-tz` is how squawk prints its rule (squawk accepts both spellings);
 * `require-timeout-settings` is squawk's alias for the two timeout rules; `prefer-big-int` is
 * squawk 0.x's name before the rule split.
 */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  'prefer-timestamp-tz': ['prefer-timestamptz'],
  'require-timeout-settings': ['require-lock-timeout', 'require-statement-timeout'],
  'prefer-big-int': ['prefer-bigint-over-int', 'prefer-bigint-over-smallint'],
  'adding-not-null-field': ['adding-not-nullable-field'],
  // dbops's own former id, merged into squawk's rule of the same meaning.
  'adding-primary-key-constraint': ['adding-serial-primary-key-field'],
};

/** The dbops rule ids a squawk (or dbops) rule name stands for. */
export function dbopsRuleIds(name: string): readonly string[] {
  const n = name.trim().toLowerCase();
  return ALIASES[n] ?? [n];
}

/** The name squawk prints for a dbops rule id (for parity checks). */
export function squawkName(id: string): string {
  return id === 'prefer-timestamptz' ? 'prefer-timestamp-tz' : id;
}
