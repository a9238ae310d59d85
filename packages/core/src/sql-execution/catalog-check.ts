import type { Classification, FunctionRef } from './classify-statement';
import type { CatalogQueryable } from './catalog-queryable';
import { type ReachedRow, reachInCatalog } from './catalog-reach';
import { type BodyClassification, classifyAtomicDefinition, classifyFunctionBody, classifySqlBody } from './classify-statement';
import { kindOfFunctionName, VOLATILE_ALLOW_LIST } from './function-policy';
import type { Finding } from './guardrail';
import type { ParsedStatement } from './parse-sql';
import { withStatementProbe } from './statement-probe';

/** Operators a statement can use without naming them (IN, CASE x WHEN, BETWEEN, ORDER BY, DISTINCT...). */
const IMPLICIT_OPERATORS = ['=', '<>', '<', '>', '<=', '>='];

/** Rounds of "a body names functions, look those up": deeper chains are refused as opaque. */
const MAX_ROUNDS = 8;

/** Languages whose functions, when shipped by the server or an extension, are trusted to be what their label says. */
const COMPILED = new Set(['c', 'internal']);

interface Seeds {
  functions: FunctionRef[];
  operators: string[];
  relations: string[];
}

interface Node {
  row: ReachedRow;
  parent: string | null;
}

const keyOf = (kind: string, oid: string): string => `${kind}:${oid}`;

const KIND_WORD: Record<ReachedRow['kind'], string> = { f: 'function', o: 'operator', r: 'relation' };

/**
 * What the statement really does, asked of the target's catalog (inside the request's
 * transaction, before the statement runs). Every function, operator, aggregate, view and
 * row-level security policy the statement reaches is followed; a user-defined function is judged
 * by its body, not its STABLE/IMMUTABLE label; functions of the server and of extensions by the
 * deny list and their volatility; bodies that cannot be read are `opaque`.
 */
export async function catalogFindings(
  db: CatalogQueryable,
  statement: Pick<ParsedStatement, 'type' | 'node' | 'text'>,
  c: Pick<Classification, 'functions' | 'operators' | 'relations' | 'reachesCatalog'>,
  serverVersionNum?: number,
  /** Runs while the probe function exists (catalog-verdict-cache.ts reads its transaction ids then). */
  whileProbing?: () => Promise<void>,
): Promise<Finding[]> {
  if (!c.reachesCatalog) return [];
  const probed = await withStatementProbe(db, statement, serverVersionNum, async (name) => {
    await whileProbing?.();
    return resolve(db, c, name);
  });
  if (probed) return probed.value;
  return resolve(db, c, '');
}

async function resolve(db: CatalogQueryable, c: Pick<Classification, 'functions' | 'operators' | 'relations'>, probeName: string): Promise<Finding[]> {
  const precise = probeName !== '';
  const nodes = new Map<string, Node>();
  const findings: Array<{ key: string; finding: Finding }> = [];
  const seededFunctions = new Set<string>();
  const seededOperators = new Set<string>();
  const seededRelations = new Set<string>();
  /** Who named what: the parent of an object found by name in a later round. */
  const mentionedBy = new Map<string, string>();

  let seeds: Seeds = {
    functions: c.functions,
    // With the probe, the server recorded every user-defined operator the statement resolves to.
    operators: precise ? [] : [...c.operators, ...IMPLICIT_OPERATORS],
    relations: precise ? [] : c.relations,
  };
  let frontier: Array<{ kind: ReachedRow['kind']; oid: string }> = [];
  for (let round = 0; ; round++) {
    const fresh = {
      functions: seeds.functions.filter((f) => !seededFunctions.has(f.schema ? `${f.schema}.${f.name}` : f.name)),
      operators: seeds.operators.filter((o) => !seededOperators.has(o)),
      relations: seeds.relations.filter((r) => !seededRelations.has(r)),
    };
    if (round > 0 && frontier.length + fresh.functions.length + fresh.operators.length + fresh.relations.length === 0) break;
    if (round >= MAX_ROUNDS) {
      findings.push({ key: '', finding: { kind: 'ddl', opaque: true, what: `functions nested more than ${MAX_ROUNDS} levels deep` } });
      break;
    }
    for (const f of fresh.functions) seededFunctions.add(f.schema ? `${f.schema}.${f.name}` : f.name);
    for (const o of fresh.operators) seededOperators.add(o);
    for (const r of fresh.relations) seededRelations.add(r);

    const rows = await reachInCatalog(db, {
      probeName: round === 0 ? probeName : '',
      functionNames: fresh.functions.filter((f) => !f.schema).map((f) => f.name),
      qualifiedFunctionNames: fresh.functions.filter((f) => f.schema).map((f) => `${f.schema}.${f.name}`),
      operatorNames: fresh.operators,
      relationNames: fresh.relations,
      frontier,
    });
    const next: Seeds = { functions: [], operators: [], relations: [] };
    frontier = [];
    for (const row of rows) {
      const key = keyOf(row.kind, row.oid);
      if (nodes.has(key)) continue;
      const parent = row.pkind && row.poid ? keyOf(row.pkind, row.poid) : (mentionedBy.get(`${row.kind}:${row.proname ?? row.label}`) ?? null);
      nodes.set(key, { row, parent });
      if (expands(row)) frontier.push({ kind: row.kind, oid: row.oid });
      const body = judge(row, (f) => findings.push({ key, finding: f }));
      if (!body) continue;
      for (const f of body.functions) {
        next.functions.push(f);
        if (!mentionedBy.has(`f:${f.name}`)) mentionedBy.set(`f:${f.name}`, key);
      }
      next.operators.push(...body.operators);
      next.relations.push(...body.relations);
    }
    seeds = next;
  }

  return findings.map(({ key, finding }) => {
    if (!key) return finding;
    const chain = pathOf(nodes, key);
    const via = chain.length > 1 ? ` (reached through ${chain.slice(0, -1).join(' -> ')})` : '';
    return { ...finding, what: `${finding.what}${via}`, foldable: finding.foldable || foldable(nodes, key) };
  });
}

/**
 * Objects whose own dependencies can matter: user-defined operators and functions (and those of
 * extensions), views and tables with row-level security. Built-ins only lead to built-ins.
 */
const expands = (row: ReachedRow): boolean => (row.kind === 'r' ? row.relkind === 'v' || row.relrowsecurity === true : !row.builtin);

/** Findings of one reached object; the body it was read from, to follow what it names. */
function judge(row: ReachedRow, report: (f: Finding) => void): BodyClassification | null {
  const where = `${KIND_WORD[row.kind]} ${row.label}`;
  if (row.kind === 'r') {
    if (row.relkind !== 'v' && !row.relrowsecurity) return null;
    const texts = [row.viewdef, ...(row.policies ?? []).map((p) => (p ? `SELECT ${p}` : null))].filter((t): t is string => !!t);
    const merged: BodyClassification = { findings: [], functions: [], operators: [], relations: [], opaque: null };
    for (const t of texts) {
      const b = classifySqlBody(t, where);
      for (const f of b.findings) report(f);
      merged.functions.push(...b.functions);
      merged.operators.push(...b.operators);
      merged.relations.push(...b.relations);
    }
    return merged;
  }
  if (row.kind !== 'f' || !row.proname) return null;
  const denied = kindOfFunctionName(row.proname) ?? (row.lanname === 'internal' && row.source ? kindOfFunctionName(row.source) : null);
  if (denied) {
    report({ kind: denied, what: `function ${row.label}` });
    return null;
  }
  const trusted = row.builtin || (row.extension && COMPILED.has(row.lanname ?? ''));
  if (trusted) {
    if (row.provolatile === 'v' && !(row.builtin && VOLATILE_ALLOW_LIST.has(row.proname))) {
      report(
        row.builtin
          ? { kind: 'ddl', what: `VOLATILE function ${row.label} (effects unknown; not on the allow-list)` }
          : { kind: 'ddl', opaque: true, what: `VOLATILE extension function ${row.label} written in ${row.lanname} (effects unknown)` },
      );
    }
    return null;
  }
  // Aggregates and window functions have no body of their own: their support functions are followed.
  if (row.prokind === 'a') return null;
  const source = row.source ?? '';
  const body = row.atomic ? classifyAtomicDefinition(source, where) : classifyFunctionBody(row.lanname ?? 'unknown', source, where);
  for (const f of body.findings) report(f);
  if (body.opaque) report({ kind: 'ddl', opaque: true, what: body.opaque });
  return body;
}

function pathOf(nodes: Map<string, Node>, key: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let k: string | null = key; k && !seen.has(k); k = nodes.get(k)?.parent ?? null) {
    seen.add(k);
    const n = nodes.get(k);
    if (n) out.unshift(`${KIND_WORD[n.row.kind]} ${n.row.label}`);
  }
  return out;
}

/** A finding under a STABLE or IMMUTABLE function can run while the statement is only planned. */
function foldable(nodes: Map<string, Node>, key: string): boolean {
  const seen = new Set<string>();
  for (let k: string | null = key; k && !seen.has(k); k = nodes.get(k)?.parent ?? null) {
    seen.add(k);
    const row = nodes.get(k)?.row;
    if (row?.kind === 'f' && row.provolatile && row.provolatile !== 'v') return true;
  }
  return false;
}
