import type { Classification } from './classify-statement';
import { VOLATILE_ALLOW_LIST } from './function-policy';
import type { Finding } from './guardrail';

/** Anything that can run a parameterised query: a `pg` client. */
export interface CatalogQueryable {
  query<R extends object>(text: string, values: unknown[]): Promise<{ rows: R[] }>;
}

interface ProcRow {
  via: 'f' | 'o';
  nspname: string;
  name: string;
  provolatile: string;
}

/**
 * Asks the target database which of the statement's functions (and operators, which are
 * functions too) are VOLATILE. Every overload of a name counts, in any schema unless the call
 * names one: the parser cannot know which overload will be chosen, so the worst one decides.
 * A VOLATILE function is DDL-level (unknown effects) unless it is on the pg_catalog allow-list.
 */
export async function volatileFindings(db: CatalogQueryable, c: Pick<Classification, 'functions' | 'operators'>): Promise<Finding[]> {
  if (c.functions.length === 0 && c.operators.length === 0) return [];
  const names = [...new Set(c.functions.map((f) => f.name))];
  const { rows } = await db.query<ProcRow>(
    `SELECT 'f' AS via, n.nspname, p.proname AS name, p.provolatile::text AS provolatile
       FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
      WHERE p.proname = ANY($1::text[]) AND p.provolatile = 'v'
     UNION ALL
     SELECT 'o', n.nspname, o.oprname, p.provolatile::text
       FROM pg_catalog.pg_operator o JOIN pg_catalog.pg_proc p ON p.oid = o.oprcode
       JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace
      WHERE o.oprname = ANY($2::text[]) AND p.provolatile = 'v'`,
    [names, c.operators],
  );
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const f of c.functions) {
    const hits = rows.filter((r) => r.via === 'f' && r.name === f.name && (f.schema === null || r.nspname === f.schema));
    const unsafe = hits.some((r) => !(r.nspname === 'pg_catalog' && VOLATILE_ALLOW_LIST.has(r.name)));
    const shown = f.schema ? `${f.schema}.${f.name}` : f.name;
    if (unsafe && !reported.has(shown)) {
      reported.add(shown);
      findings.push({ kind: 'ddl', what: `VOLATILE function ${shown}() (effects unknown; not on the allow-list)` });
    }
  }
  for (const r of rows.filter((x) => x.via === 'o')) {
    if (reported.has(`op:${r.name}`)) continue;
    reported.add(`op:${r.name}`);
    findings.push({ kind: 'ddl', what: `operator ${r.name} backed by a VOLATILE function` });
  }
  return findings;
}
