import type { TableMention } from './mentions';
import type { Plan } from './plan';
import { columnRef, type IndexedColumn, keyColumn, labelColumn } from './schema-index';
import type { Word } from './words';

/** A single-column foreign key of `from` to `to`, as [from column, to column]. */
function foreignKey(plan: Plan, from: Plan['main'], to: Plan['main']): [string, string] | undefined {
  const fk = from.table.foreign_keys.find((f) => f.referenced_schema === to.table.schema && f.referenced_table === to.table.name && f.columns.length === 1);
  return fk ? [fk.columns[0]!, fk.referenced_columns[0] ?? keyColumn(to)?.column.name ?? 'id'] : undefined;
  void plan;
}

/**
 * "books that have never been loaned", "vehicles that have never made a trip": rows of the main
 * table no row of the related table refers to (NOT EXISTS). Returns the table mention it used,
 * which must then not be joined, or undefined.
 */
export function applyNever(plan: Plan, words: readonly Word[], tms: readonly TableMention[], used: Set<number>): TableMention | undefined {
  const never = words.findIndex((w) => w.lower === 'never');
  if (never < 0) return undefined;
  const rel = tms.find((m) => m.start > never && m.table !== plan.main && foreignKey(plan, m.table, plan.main));
  if (!rel) return undefined;
  const [fkCol, keyCol] = foreignKey(plan, rel.table, plan.main)!;
  const alias = `${rel.table.alias}_none`;
  plan.where.push(`NOT EXISTS (SELECT 1 FROM ${rel.table.sqlName} ${alias} WHERE ${alias}."${fkCol}" = ${plan.main.alias}."${keyCol}")`);
  plan.notes.push(`"never" is read as no row of ${rel.table.table.name} referring to the ${plan.main.table.name} row.`);
  // "never", the verb and the table: "never made a trip", "never been loaned".
  for (let i = never; i < rel.end; i++) used.add(i);
  return rel;
}

/**
 * "each driver with their manager", "members recommended by another member": the main table
 * joined to itself through its own foreign key; the other row's label columns are shown beside
 * the row's (the same columns when the output names them).
 */
export function applySelfJoin(plan: Plan, words: readonly Word[], nullTested: readonly string[], used: Set<number>): boolean {
  const main = plan.main;
  const fk = main.table.foreign_keys.find((f) => f.referenced_schema === main.table.schema && f.referenced_table === main.table.name && f.columns.length === 1);
  if (!fk || nullTested.includes(fk.columns[0]!)) return false;
  const fkColumn = main.columns.find((c) => c.column.name === fk.columns[0]);
  if (!fkColumn) return false;
  const fkStems = fkColumn.stems;
  const another = words.findIndex((w) => w.lower === 'another' || w.lower === 'other');
  const named = words.findIndex(
    (w, i) =>
      ['their', 'his', 'her', 'its'].includes(words[i - 1]?.lower ?? '') &&
      fkStems.some((s) => w.stem === s || w.stem.startsWith(s) || s.startsWith(w.stem.slice(0, 5))),
  );
  if (another < 0 && named < 0) return false;
  const p = `${main.alias}_p`;
  plan.rawJoins.push(`JOIN ${main.sqlName} ${p} ON ${p}."${fk.referenced_columns[0]}" = ${main.alias}."${fk.columns[0]}"`);
  const star = plan.select.length === 1 && plan.select[0] === `${main.alias}.*`;
  const mirrored = star
    ? (personLabels(main) ?? [labelColumn(main)].filter((c): c is IndexedColumn => c !== undefined))
    : main.columns.filter((c) => plan.select.includes(columnRef(main, c)) && c !== keyColumn(main));
  for (const c of mirrored) plan.select.push(`${p}."${c.column.name}" AS "${fk.columns[0]}_${c.column.name}"`);
  plan.notes.push(`${main.table.name} joined to itself through ${fk.columns[0]}.`);
  // The words naming the other row ("another member", "their manager", "the recommender").
  for (const w of words) {
    if (w.index === another || w.index === another + 1 || w.index === named) used.add(w.index);
    if (fkStems.some((s) => w.stem.startsWith(s.slice(0, 5)))) used.add(w.index);
  }
  return true;
}

/** `first_name` and `last_name` together name a person better than either alone. */
export function personLabels(t: Plan['main']): IndexedColumn[] | undefined {
  const first = t.columns.find((c) => /^first_?name$/.test(c.column.name));
  const last = t.columns.find((c) => /^(last_?name|surname)$/.test(c.column.name));
  return first && last ? [first, last] : undefined;
}

/**
 * "for each month of 2023", "per month": the month of the main date column is the group, first in
 * the output and the order. True when applied.
 */
export function applyMonthGroups(plan: Plan, words: readonly Word[], used: Set<number>): boolean {
  const at = words.findIndex((w, i) => w.lower === 'month' && ['each', 'per', 'by', 'every'].includes(words[i - 1]?.lower ?? ''));
  if (at < 0 || plan.groupBy.length > 0) return false;
  const dated =
    plan
      .joined()
      .flatMap((t) => t.columns.filter((c) => c.kind === 'date').map((c) => ({ t, c })))
      .find(({ t, c }) => plan.where.some((w) => w.includes(columnRef(t, c)))) ??
    plan.main.columns.filter((c) => c.kind === 'date').map((c) => ({ t: plan.main, c }))[0];
  if (!dated) return false;
  const expr = `extract(month FROM ${columnRef(dated.t, dated.c)})`;
  plan.select.unshift(`${expr} AS month`);
  plan.groupBy.push(expr);
  plan.orderBy.splice(0, plan.orderBy.length, 'month');
  for (const w of words) if (w.lower === 'month' || w.index === at - 1) used.add(w.index);
  return true;
}
