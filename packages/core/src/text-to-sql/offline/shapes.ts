/**
 * The shape of the offline generator's answer: which table is the subject, what the rows are
 * grouped by, and whether it is a count, an aggregate, a top-N, a ranking or a plain list. Split
 * from offline-generator.ts so each concept can be read on its own; behaviour is unchanged.
 */
import { type JoinStep, joinPath } from './join-paths';
import { Plan } from './plan';
import { type ColumnMention, type TableMention } from './mentions';
import { columnRef, type IndexedColumn, type IndexedTable, keyColumn, labelColumn } from './schema-index';
import { type Word } from './words';

export type Aggregate = 'count' | 'sum' | 'avg' | 'max' | 'min';

export const AGGREGATE_WORDS: Array<[RegExp, Aggregate]> = [
  [/\b(average|avg|mean)\b/, 'avg'],
  [/\b(sum|total)\b/, 'sum'],
  [/\b(maximum|max|highest|largest|biggest|most expensive|latest|most recent)\b/, 'max'],
  [/\b(minimum|min|lowest|smallest|cheapest|least expensive|earliest)\b/, 'min'],
];

/** Past participles that take an agent with "by". */
export const PARTICIPLE = /^(written|sold|driven|made|bought|taken|given|held|kept|owned|done|run|\w{3,}ed)$/;

export const ADJECTIVE_MEASURES: Array<[RegExp, RegExp]> = [
  [/\b(longest|shortest|longer|shorter|duration)\b/, /length|duration|millisecond|seconds|minutes|runtime/],
  [/\b(populous|populated|inhabitants|people)\b/, /population/],
  [/\b(heaviest|lightest|heavier|lighter)\b/, /weight|mass/],
  [/\b(oldest|youngest|older|younger)\b/, /(^|_)age$/],
];

/** True when `step` goes from a row to the one row it refers to (many-to-one). */
export const toOne = (step: JoinStep): boolean =>
  step.from.table.foreign_keys.some(
    (fk) => fk.referenced_table === step.to.table.name && fk.referenced_schema === step.to.table.schema && fk.columns.every((c, i) => step.on[i]?.[0] === c),
  );

export function chooseMain(
  text: string,
  words: readonly Word[],
  tms: readonly TableMention[],
  cms: readonly ColumnMention[],
  tables: readonly IndexedTable[],
  valueTables: readonly IndexedTable[] = [],
): IndexedTable | undefined {
  const trigger = /\b(how many|number of|count|list|show|which|what|find|top \d+|all)\b/.exec(text);
  if (trigger && tms.length > 0) {
    const triggerWord = text.slice(0, trigger.index).trim().split(' ').filter(Boolean).length;
    const after = tms.find((m) => m.start >= triggerWord);
    if (after) return after.table;
  }
  if (tms[0]) return tms[0].table;
  // "the local name of Germany": of the tables with a local_name, the one holding "Germany".
  const held = cms.find((c) => valueTables.includes(c.table));
  if (held) return held.table;
  if (cms[0]) return cms[0].table;
  void words;
  return tables.length === 1 ? tables[0] : undefined;
}

/** A column of a table already in the plan, or of one that can be joined. */
export function bestColumn(plan: Plan, candidates: readonly ColumnMention[], predicate: (c: IndexedColumn) => boolean): ColumnMention | undefined {
  const ok = candidates.filter((c) => predicate(c.column));
  // A column of a table no foreign key reaches (a view, say) cannot be used: the next best is.
  return (
    ok.find((c) => c.table === plan.main) ??
    ok.find((c) => plan.joined().includes(c.table)) ??
    ok.find((c) => joinPath(plan.tables, plan.main, c.table) !== null)
  );
}

/** rank() over the numeric column named after "by" (or the first one named), highest first unless asked otherwise. */
export function applyRanking(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], used: Set<number>): void {
  const by = words.findIndex((w) => w.lower === 'by');
  const measure =
    cms.find((c) => c.start > by && c.column.kind === 'number' && plan.joined().includes(c.table)) ??
    cms.find((c) => c.column.kind === 'number' && c.table === plan.main);
  if (!measure) return;
  const text = ` ${words.map((w) => w.lower).join(' ')} `;
  const asc = /\b(lowest|cheapest|smallest|shortest|least|fewest|oldest|earliest) first\b|\bascending\b/.test(text);
  plan.select.push(`rank() OVER (ORDER BY ${columnRef(measure.table, measure.column)} ${asc ? 'ASC' : 'DESC'}) AS rank`);
  plan.notes.push(`Ranked by ${measure.table.table.name}.${measure.column.column.name}, ties sharing a rank.`);
  for (const w of words) if (/^(rank|ranked|sharing|share|ties|tied|first)$/.test(w.lower)) used.add(w.index);
}

/** "per customer", "by status", "for each category", "grouped by city". */
export function findGroupTarget(
  words: readonly Word[],
  tms: readonly TableMention[],
  cms: readonly ColumnMention[],
  main: IndexedTable,
  tables: readonly IndexedTable[],
): { table: IndexedTable; column?: IndexedColumn; agentLike?: boolean } | undefined {
  const target = findGroupTargetWord(words, tms, cms, main, tables);
  if (!target) return undefined;
  // "products listed in 2022 by sellers from France": a participle a few words before "by" may
  // take it as its agent as well as the question asking for groups.
  const { by, ...found } = target;
  const before = by === undefined ? [] : words.slice(Math.max(0, by - 4), by);
  const agentLike = before.some((x) => PARTICIPLE.test(x.lower) && !x.afterComma) && !before.some((x) => x.afterComma);
  return agentLike ? { ...found, agentLike } : found;
}

function findGroupTargetWord(
  words: readonly Word[],
  tms: readonly TableMention[],
  cms: readonly ColumnMention[],
  main: IndexedTable,
  tables: readonly IndexedTable[],
): { table: IndexedTable; column?: IndexedColumn; by?: number } | undefined {
  for (const w of words) {
    if (!['per', 'by', 'each'].includes(w.lower)) continue;
    // "written by authors from Canada", "placed by buyers": the agent of a verb, not a grouping.
    if (w.lower === 'by' && PARTICIPLE.test(words[w.index - 1]?.lower ?? '')) continue;
    const by = w.lower === 'by' ? w.index : undefined;
    const next = w.index + 1 + (words[w.index + 1]?.lower === 'each' ? 1 : 0);
    const at = cms.filter((c) => c.start === next || c.start === next + 1);
    // The same words may name a column of several tables: the main table's, else one it can join.
    const col = at.find((c) => c.table === main) ?? at.find((c) => joinPath(tables, main, c.table) !== null) ?? at[0];
    if (col && !(col.column.kind === 'number' && col.table === main)) return { table: col.table, column: col.column, by };
    const t = tms.find((m) => m.start === next || m.start === next + 1);
    if (t && t.table !== main) return { table: t.table, by };
    // "average rating per product" over products: the measure lives in a related table, so
    // the rows of the main table itself are the groups.
    if (t && cms.some((c) => c.table !== main && c.column.kind === 'number')) return { table: main, by };
  }
  return undefined;
}

export function applyGroup(plan: Plan, target: { table: IndexedTable; column?: IndexedColumn }): void {
  if (!plan.join(target.table)) return;
  const col = target.column ?? labelColumn(target.table) ?? keyColumn(target.table);
  if (!col) return;
  const ref = columnRef(target.table, col);
  // Grouping "per customer" by name alone would merge two customers of the same name, and
  // showing the name alone would leave two rows "Music" without saying which playlist each is:
  // the key is grouped by and shown first.
  const key = target.column ? undefined : keyColumn(target.table);
  if (key && key !== col) {
    plan.select.push(columnRef(target.table, key));
    plan.groupBy.push(columnRef(target.table, key));
  }
  plan.select.push(ref);
  plan.groupBy.push(ref);
  plan.notes.push(`Grouped by ${target.table.table.name}.${col.column.name}.`);
}

export function measureColumn(
  plan: Plan,
  words: readonly Word[],
  cms: readonly ColumnMention[],
  text: string,
): { t: IndexedTable; c: IndexedColumn } | undefined {
  const mentioned = bestColumn(plan, cms, (c) => c.kind === 'number' && !c.column.name.endsWith('_id') && c.column.name !== 'id');
  if (mentioned) return { t: mentioned.table, c: mentioned.column };
  const wantsPrice = /\b(expensive|cheap|cheapest|cheaper|price|cost)\b/.test(text);
  // Adjectives that name a measure: "longest" is a length or duration, "most populous" a population.
  const adjective = ADJECTIVE_MEASURES.find(([re]) => re.test(text))?.[1];
  for (const t of plan.joined()) {
    const numbers = t.columns.filter((c) => c.kind === 'number' && !c.column.name.endsWith('_id') && c.column.name !== 'id');
    const c =
      (adjective ? numbers.find((n) => adjective.test(n.column.name)) : undefined) ??
      (wantsPrice ? numbers.find((n) => /price|cost/.test(n.column.name)) : undefined) ??
      numbers.find((n) => /^(total|amount|total_amount|price|value|revenue|salary|balance|quantity)$/.test(n.column.name)) ??
      numbers.find((n) => /amount|total|price/.test(n.column.name));
    if (c) {
      plan.notes.push(`The measure is taken to be ${t.table.name}.${c.column.name}.`);
      return { t, c };
    }
  }
  void words;
  return undefined;
}

/** `first_name` and `last_name` together name a person better than either alone. */
export function personLabels(t: IndexedTable): IndexedColumn[] | undefined {
  const first = t.columns.find((c) => c.column.name === 'first_name');
  const last = t.columns.find((c) => c.column.name === 'last_name');
  return first && last ? [first, last] : undefined;
}

/** The money column of a table referring to the main one, when the question is about spending. */
export function spendingNeighbour(plan: Plan, text: string): { t: IndexedTable; c: IndexedColumn } | undefined {
  if (!/\b(spent|spend|spends|paid|pays|revenue|sales|sold|earned|invoiced|bought)\b/.test(text)) return undefined;
  for (const t of plan.tables) {
    if (t === plan.main || !t.table.foreign_keys.some((f) => f.referenced_table === plan.main.table.name && f.referenced_schema === plan.main.table.schema))
      continue;
    const c = t.columns.find((x) => x.kind === 'number' && /^(total|amount|total_amount|price|revenue)$/.test(x.column.name));
    if (c) return { t, c };
  }
  return undefined;
}

export function buildAggregate(
  plan: Plan,
  aggregate: Aggregate,
  words: readonly Word[],
  mentions: { tables: TableMention[]; columns: ColumnMention[] },
  groupTarget: { table: IndexedTable; column?: IndexedColumn } | undefined,
  used: Set<number>,
  text: string,
): void {
  if (groupTarget) applyGroup(plan, groupTarget);
  if (aggregate === 'count') {
    const key = keyColumn(plan.main);
    const perRow = groupTarget !== undefined && groupTarget.column === undefined && groupTarget.table !== plan.main && key !== undefined;
    if (perRow) plan.keepAllOf = groupTarget.table;
    const counted = plan.fansOut() && key ? `count(DISTINCT ${columnRef(plan.main, key)})` : perRow ? `count(${columnRef(plan.main, key)})` : 'count(*)';
    plan.select.push(`${counted} AS count`);
    if (groupTarget) plan.orderBy.push('count DESC');
    return;
  }
  // "the date of the earliest invoice", "when was the latest order": min/max of a date.
  const wantsDate = (aggregate === 'min' || aggregate === 'max') && /\b(date|day|when|earliest|latest|first|last|most recent|oldest|newest)\b/.test(text);
  const dateMention = wantsDate ? bestColumn(plan, mentions.columns, (c) => c.kind === 'date') : undefined;
  const dateColumn = dateMention
    ? { t: dateMention.table, c: dateMention.column }
    : wantsDate
      ? plan.main.columns.filter((c) => c.kind === 'date').map((c) => ({ t: plan.main, c }))[0]
      : undefined;
  const measure = dateColumn ?? measureColumn(plan, words, mentions.columns, text);
  if (!measure || !plan.join(measure.t)) {
    plan.warnings.push(`No numeric column found to take the ${aggregate} of; counting rows instead.`);
    plan.select.push('count(*) AS count');
    return;
  }
  // sum(invoice.total) per genre goes genre -> tracks -> invoice lines -> invoice: each invoice
  // is counted once per line. A measure reached many-to-one after a fan-out repeats its values.
  const step = plan.joins.find((j) => j.to === measure.t);
  if ((aggregate === 'sum' || aggregate === 'avg') && step && toOne(step) && plan.joins.some((j) => j !== step && !toOne(j))) {
    plan.doubt(`${measure.t.table.name}.${measure.c.column.name} is repeated by the joins, so the ${aggregate} may count a value more than once`, 0.3);
  }
  const name = `${aggregate}_${measure.c.column.name}`;
  // ::numeric: round(x, 2) has no double precision form, and real/float columns are common.
  const expr = aggregate === 'avg' ? `round(avg(${columnRef(measure.t, measure.c)})::numeric, 2)` : `${aggregate}(${columnRef(measure.t, measure.c)})`;
  plan.select.push(`${expr} AS ${name}`);
  if (groupTarget) plan.orderBy.push(`${name} DESC`);
  void used;
}

export function buildTopN(
  plan: Plan,
  n: number,
  desc: boolean,
  words: readonly Word[],
  mentions: { tables: TableMention[]; columns: ColumnMention[] },
  used: Set<number>,
  text: string,
  aggregate?: Aggregate,
): void {
  const main = plan.main;
  const key = keyColumn(main);
  const label = labelColumn(main);
  // "Which country has the most customers?", "which continent has the largest total surface
  // area?": the thing asked for is a column (of customers, of countries), so its values are the
  // groups, ranked by the number of rows or by the measure.
  const asked = words.findIndex((w) => /^(which|what)$/.test(w.lower));
  const askedAt = asked >= 0 && words[asked + 1]?.kind === 'number' ? asked + 2 : asked + 1;
  const groupColumn =
    asked >= 0
      ? mentions.columns.find(
          (c) => c.start === askedAt && (c.column.kind === 'text' || c.column.kind === 'enum') && !mentions.tables.some((t) => t.start === askedAt),
        )
      : undefined;
  if (groupColumn && plan.join(groupColumn.table)) {
    const ref = columnRef(groupColumn.table, groupColumn.column);
    const dir = desc ? 'DESC' : 'ASC';
    plan.select.push(ref);
    plan.groupBy.push(ref);
    const measure = measureColumn(
      plan,
      words,
      mentions.columns.filter((c) => c !== groupColumn),
      text,
    );
    const counts =
      /\b(most|fewest|least|many|number of)\b/.test(text) && mentions.tables.some((t) => /^(most|fewest|least|many)$/.test(words[t.start - 1]?.lower ?? ''));
    if (measure && !counts && plan.join(measure.t)) {
      const fn = aggregate === 'avg' ? 'avg' : 'sum';
      plan.select.push(`${fn}(${columnRef(measure.t, measure.c)}) AS ${fn}_${measure.c.column.name}`);
      plan.orderBy.push(`${fn}_${measure.c.column.name} ${dir}`);
    } else {
      plan.select.push('count(*) AS count');
      plan.orderBy.push(`count ${dir}`);
    }
    plan.limit = n;
    plan.notes.push(`Grouped by ${groupColumn.table.table.name}.${groupColumn.column.column.name}.`);
    return;
  }
  // "customers with the most orders": rank by the number of related rows of another table.
  const counts = (m: TableMention): boolean => /^(most|fewest|least|many|more|number)$/.test(words[m.start - 1]?.lower ?? '');
  const related = mentions.tables.find((m) => m.table !== main && plan.join(m.table, counts(m)));
  const countsRelated = related !== undefined && counts(related);
  let measure = countsRelated
    ? undefined
    : measureColumn(
        plan,
        words,
        mentions.columns.filter((c) => c.table === main || c.table === related?.table),
        text,
      );
  // "Which customer has spent the most?": the money is in a table that refers to the customer.
  const spending = !measure && !related ? spendingNeighbour(plan, text) : undefined;
  if (spending && plan.join(spending.t, true)) {
    measure = spending;
    plan.doubt(`what was spent is ${spending.t.table.name}.${spending.c.column.name}`, 0.1);
  }
  const dir = desc ? 'DESC' : 'ASC';
  const labels = personLabels(main) ?? (label && label !== key ? [label] : []);
  if (measure && measure.t === main) {
    plan.select.push(`${main.alias}.*`);
    plan.orderBy.push(`${columnRef(main, measure.c)} ${dir}`);
    // Ties are broken by the key so that "top 5" always names the same rows.
    if (key && key !== measure.c) plan.orderBy.push(`${columnRef(main, key)} ASC`);
    if (plan.joins.length > 0) plan.distinct = true;
  } else if ((related || measure) && key) {
    const group = [columnRef(main, key), ...labels.map((l) => columnRef(main, l))];
    plan.select.push(...group);
    plan.groupBy.push(...group);
    if (measure) {
      const name = `total_${measure.c.column.name}`;
      plan.select.push(`sum(${columnRef(measure.t, measure.c)}) AS ${name}`);
      plan.orderBy.push(`${name} ${dir}`);
    } else if (related) {
      const rk = keyColumn(related.table);
      plan.select.push(`count(${rk ? columnRef(related.table, rk) : '*'}) AS ${related.table.table.name}_count`);
      plan.orderBy.push(`${related.table.table.name}_count ${dir}`);
    }
    // Ties are broken by the key so that "which X has the most Y" names one row deterministically.
    plan.orderBy.push(`${columnRef(main, key)} ASC`);
  } else {
    plan.select.push(`${main.alias}.*`);
    const dateCol = main.columns.find((c) => c.kind === 'date');
    if (/\b(latest|newest|most recent|oldest|earliest)\b/.test(text) && dateCol) {
      plan.orderBy.push(`${columnRef(main, dateCol)} ${/\b(oldest|earliest)\b/.test(text) ? 'ASC' : 'DESC'}`);
    } else if (key) {
      plan.orderBy.push(`${columnRef(main, key)} ${dir}`);
      plan.warnings.push('No measure to rank by was found; ordered by the primary key.');
    }
  }
  plan.limit = n;
  void used;
}

export function buildList(plan: Plan, groupTarget: { table: IndexedTable; column?: IndexedColumn } | undefined, text: string): void {
  if (groupTarget) {
    applyGroup(plan, groupTarget);
    plan.select.push('count(*) AS count');
    return;
  }
  plan.select.push(`${plan.main.alias}.*`);
  const dateCol = plan.main.columns.find((c) => c.kind === 'date');
  if (/\b(latest|newest|most recent|recent)\b/.test(text) && dateCol) plan.orderBy.push(`${columnRef(plan.main, dateCol)} DESC`);
  else if (/\b(oldest|earliest)\b/.test(text) && dateCol) plan.orderBy.push(`${columnRef(plan.main, dateCol)} ASC`);
}
