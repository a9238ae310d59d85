import { quoteLiteral } from '../../pg/quote';
import type { GeneratedSql, GenerationRequest, SqlGenerator } from '../language-model';
import { findComparisons } from './comparisons';
import { findDateRange } from './date-ranges';
import { findImplicitEquals } from './implicit-equals';
import { type JoinStep, joinPath } from './join-paths';
import { type ColumnMention, findMentions, type TableMention } from './mentions';
import { columnRef, type IndexedColumn, type IndexedTable, indexSchema, keyColumn, labelColumn } from './schema-index';
import { unsupportedConstructs } from './unsupported-constructs';
import { questionWords, STOP_WORDS, type Word } from './words';

type Aggregate = 'count' | 'sum' | 'avg' | 'max' | 'min';

const AGGREGATE_WORDS: Array<[RegExp, Aggregate]> = [
  [/\b(average|avg|mean)\b/, 'avg'],
  [/\b(sum|total)\b/, 'sum'],
  [/\b(maximum|max|highest|largest|biggest|most expensive|latest)\b/, 'max'],
  [/\b(minimum|min|lowest|smallest|cheapest|least expensive|earliest)\b/, 'min'],
];

const sqlString = quoteLiteral;

/** A SELECT under construction. */
class Plan {
  readonly joins: JoinStep[] = [];
  readonly select: string[] = [];
  readonly where: string[] = [];
  readonly groupBy: string[] = [];
  readonly having: string[] = [];
  readonly orderBy: string[] = [];
  limit: number | undefined;
  distinct = false;
  readonly notes: string[] = [];
  readonly warnings: string[] = [];

  constructor(
    readonly main: IndexedTable,
    readonly tables: readonly IndexedTable[],
  ) {}

  joined(): IndexedTable[] {
    return [this.main, ...this.joins.map((j) => j.to)];
  }

  /** Joins `t` along the shortest foreign-key path; false when there is none. */
  join(t: IndexedTable): boolean {
    if (this.joined().includes(t)) return true;
    for (const start of this.joined()) {
      const path = joinPath(this.tables, start, t);
      if (path) {
        for (const step of path) if (!this.joined().includes(step.to)) this.joins.push(step);
        return true;
      }
    }
    this.warnings.push(`No foreign-key path joins ${this.main.table.name} to ${t.table.name}; that part of the question was ignored.`);
    return false;
  }

  /** True when a join may repeat rows of the main table. */
  fansOut(): boolean {
    return this.joins.some((j) => j.to.table.foreign_keys.some((fk) => fk.referenced_table === j.from.table.name));
  }

  sql(): string {
    const from = [`FROM ${this.main.sqlName} ${this.main.alias}`];
    for (const j of this.joins) {
      const on = j.on.map(([a, b]) => `${j.from.alias}.${a} = ${j.to.alias}.${b}`).join(' AND ');
      from.push(`JOIN ${j.to.sqlName} ${j.to.alias} ON ${on}`);
    }
    const parts = [`SELECT ${this.distinct ? 'DISTINCT ' : ''}${this.select.join(', ')}`, from.join('\n  ')];
    if (this.where.length) parts.push(`WHERE ${this.where.join('\n  AND ')}`);
    if (this.groupBy.length) parts.push(`GROUP BY ${this.groupBy.join(', ')}`);
    if (this.having.length) parts.push(`HAVING ${this.having.join(' AND ')}`);
    if (this.orderBy.length) parts.push(`ORDER BY ${this.orderBy.join(', ')}`);
    if (this.limit !== undefined) parts.push(`LIMIT ${this.limit}`);
    return parts.join('\n');
  }
}

/**
 * The offline text-to-SQL generator: a small semantic parser over the retrieved schema. It maps
 * the question's words to tables, columns and enum values, recognises counts, aggregates,
 * grouping, top-N, comparisons and date ranges, and joins along foreign keys. It only ever uses
 * names from the schema it was given, and its confidence drops with every content word it could
 * not place.
 */
export class OfflineSqlGenerator implements SqlGenerator {
  readonly name = 'offline';

  async generate(request: GenerationRequest): Promise<GeneratedSql> {
    return generateOffline(request);
  }
}

export function generateOffline(request: GenerationRequest): GeneratedSql {
  const tables = indexSchema(
    request.tables.map((t) => t.table),
    request.enums,
  );
  const words = questionWords(request.question);
  const lower = words.map((w) => w.lower);
  const text = ` ${lower.join(' ')} `;
  const mentions = findMentions(words, tables);
  const used = new Set(mentions.used);

  const main = chooseMain(text, words, mentions.tables, mentions.columns, tables);
  if (!main) {
    return {
      sql: '',
      confidence: 0.1,
      reasoning: 'No table or column of the retrieved schema matches the question.',
      referenced_tables: [],
      warnings: ['The question does not name anything in the retrieved schema; rephrase it with table or column names.'],
    };
  }
  const plan = new Plan(main, tables);
  const isCount = /\b(how many|number of|count)\b/.test(text);
  // "total" is an aggregate unless it names a column ("orders with total over 100").
  const freeText = ` ${words.map((w) => (mentions.used.has(w.index) ? '_' : w.lower)).join(' ')} `;
  const sumPhrase = words.some(
    (w) =>
      /^(total|sum)$/.test(w.lower) &&
      // "total of ...", "total quantity", "total payment amount": a numeric column within three words.
      (words[w.index + 1]?.lower === 'of' || mentions.columns.some((c) => c.start > w.index && c.start - w.index <= 3 && c.column.kind === 'number')),
  );
  const aggregate = isCount ? undefined : (AGGREGATE_WORDS.find(([re]) => re.test(freeText))?.[1] ?? (sumPhrase ? 'sum' : undefined));

  applyEnumAndBooleanFilters(plan, words, mentions.columns, used);
  applyValueFilters(plan, words, mentions.columns, mentions.tables, used);
  const dateRange = findDateRange(lower);
  if (dateRange) applyDateRange(plan, dateRange, mentions.columns, used);
  const isNumber = (i: number): boolean => words[i]?.kind === 'number' && !used.has(i);
  const explicit = findComparisons(lower, isNumber);
  const numericEnds = mentions.columns.filter((c) => c.column.kind === 'number').map((c) => c.end);
  const comparisons = [...explicit, ...findImplicitEquals(lower, numericEnds, isNumber, explicit)];

  // Top-N: "top 5 X by Y", "5 most expensive X", "which X has the most Y".
  const topMatch = /\btop (\d+)\b/.exec(text) ?? /\b(\d+) (?:most|least|highest|lowest|largest|smallest|biggest|best|cheapest)\b/.exec(text);
  const which = /\b(which|what) (\w+ )?(has|have|had|is|are|with)? ?(the )?(most|highest|largest|biggest|fewest|least|lowest|smallest)\b/.test(text);
  const superlativeEntity = /\bthe (most expensive|cheapest|largest|biggest|smallest|highest|lowest|latest|newest|oldest|earliest)\b/.test(text) && !/\bthe (highest|lowest|largest|smallest) \w+ of\b/.test(text);

  const groupTarget = findGroupTarget(words, mentions.tables, mentions.columns, main);

  if (topMatch || which || (superlativeEntity && !isCount && !groupTarget)) {
    const n = topMatch ? Number(topMatch[1]) : 1;
    const desc = !/\b(least|fewest|lowest|smallest|cheapest|oldest|earliest|bottom)\b/.test(text);
    buildTopN(plan, n, desc, words, mentions, used, text);
  } else if (isCount || aggregate) {
    buildAggregate(plan, isCount ? 'count' : (aggregate as Aggregate), words, mentions, groupTarget, used, text);
  } else {
    buildList(plan, groupTarget, text);
  }
  applyComparisons(plan, comparisons, words, mentions, used);
  for (const t of mentions.tables) if (t.table !== main) plan.join(t.table);

  const unplaced = words.filter((w) => w.kind === 'word' && !used.has(w.index) && !STOP_WORDS.has(w.lower) && !STOP_WORDS.has(w.stem) && w.lower.length > 2);
  const unsupported = unsupportedConstructs(text);
  let confidence = Math.max(0.3, Math.min(1, 1 - 0.12 * unplaced.length - (plan.warnings.length > 0 ? 0.15 : 0)));
  if (unsupported.length > 0) confidence = Math.min(confidence, 0.4);
  if (unplaced.length > 0) plan.warnings.push(`Not matched to the schema: ${unplaced.map((w) => w.text).join(', ')}.`);
  if (unsupported.length > 0) plan.warnings.push(`The question asks for ${unsupported.join(' and ')}, which the offline generator cannot express; the SQL is a partial answer.`);

  return {
    sql: plan.sql(),
    confidence: Number(confidence.toFixed(2)),
    reasoning: [`Main table: ${main.table.schema}.${main.table.name}.`, ...plan.notes].join(' '),
    referenced_tables: plan.joined().map((t) => `${t.table.schema}.${t.table.name}`),
    warnings: plan.warnings,
  };
}

function chooseMain(text: string, words: readonly Word[], tms: readonly TableMention[], cms: readonly ColumnMention[], tables: readonly IndexedTable[]): IndexedTable | undefined {
  const trigger = /\b(how many|number of|count|list|show|which|what|find|top \d+|all)\b/.exec(text);
  if (trigger && tms.length > 0) {
    const triggerWord = text.slice(0, trigger.index).trim().split(' ').filter(Boolean).length;
    const after = tms.find((m) => m.start >= triggerWord);
    if (after) return after.table;
  }
  if (tms[0]) return tms[0].table;
  if (cms[0]) return cms[0].table;
  void words;
  return tables.length === 1 ? tables[0] : undefined;
}

/** A column of a table already in the plan, or of one that can be joined. */
function bestColumn(plan: Plan, candidates: readonly ColumnMention[], predicate: (c: IndexedColumn) => boolean): ColumnMention | undefined {
  const ok = candidates.filter((c) => predicate(c.column));
  return ok.find((c) => c.table === plan.main) ?? ok.find((c) => plan.joined().includes(c.table)) ?? ok[0];
}

function applyEnumAndBooleanFilters(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], used: Set<number>): void {
  for (const m of cms) {
    if (m.column.kind !== 'boolean' || !plan.joined().includes(m.table)) continue;
    const negated = ['not', 'non', 'no'].includes(words[m.start - 1]?.lower ?? '');
    plan.where.push(`${columnRef(m.table, m.column)} = ${negated ? 'false' : 'true'}`);
  }
  for (const w of words) {
    if (w.kind !== 'word' && w.kind !== 'quoted') continue;
    for (const t of [plan.main, ...plan.tables.filter((x) => x !== plan.main)]) {
      const col = t.columns.find((c) => c.kind === 'enum' && c.enumValues.some((v) => v.toLowerCase() === w.lower));
      if (col) {
        if (!plan.join(t)) continue;
        const value = col.enumValues.find((v) => v.toLowerCase() === w.lower) ?? w.text;
        plan.where.push(`${columnRef(t, col)} = ${sqlString(value)}`);
        plan.notes.push(`"${w.text}" is a value of ${t.table.name}.${col.column.name}.`);
        used.add(w.index);
        break;
      }
    }
  }
  for (const w of words) {
    if (w.kind !== 'word' || used.has(w.index)) continue;
    const negated = w.lower.startsWith('in') && w.lower.length > 4 ? w.lower.slice(2) : w.lower.startsWith('un') ? w.lower.slice(2) : null;
    for (const t of plan.joined()) {
      const col = t.columns.find((c) => c.kind === 'boolean' && c.stems.length === 1 && (c.stems[0] === w.stem || c.stems[0] === negated));
      if (col) {
        const positive = col.stems[0] === w.stem && words[w.index - 1]?.lower !== 'not';
        plan.where.push(`${columnRef(t, col)} = ${positive ? 'true' : 'false'}`);
        used.add(w.index);
        break;
      }
    }
  }
}

/** Quoted strings and capitalised names: "named 'Alice'", "from Berlin", "in the Books category". */
function applyValueFilters(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], tms: readonly TableMention[], used: Set<number>): void {
  for (const w of words) {
    const proper = w.kind === 'word' && /^[A-Z]/.test(w.text) && w.index > 0 && !used.has(w.index) && !STOP_WORDS.has(w.lower);
    if ((w.kind !== 'quoted' && !proper) || used.has(w.index)) continue;
    // The column or table named just before the value says where it belongs.
    const col = [...cms].reverse().find((c) => c.end <= w.index && w.index - c.end <= 2 && (c.column.kind === 'text' || c.column.kind === 'other'));
    const tbl = [...tms].reverse().find((t) => (t.end <= w.index && w.index - t.end <= 2) || (t.start > w.index && t.start - w.index <= 1));
    let target: { t: IndexedTable; c: IndexedColumn } | undefined;
    if (col) target = { t: col.table, c: col.column };
    else if (tbl && tbl.table !== plan.main) {
      const label = labelColumn(tbl.table);
      if (label) target = { t: tbl.table, c: label };
    } else {
      const texts = plan.main.columns.filter((c) => c.kind === 'text');
      const place = ['city', 'country', 'state', 'region', 'location', 'name', 'title'].map((n) => texts.find((c) => c.column.name === n)).find(Boolean);
      const label = place ?? labelColumn(plan.main);
      if (label) target = { t: plan.main, c: label };
    }
    if (!target || !plan.join(target.t)) continue;
    plan.where.push(`${columnRef(target.t, target.c)} = ${sqlString(w.text)}`);
    plan.notes.push(`"${w.text}" is compared with ${target.t.table.name}.${target.c.column.name}.`);
    used.add(w.index);
  }
}

function applyDateRange(plan: Plan, range: NonNullable<ReturnType<typeof findDateRange>>, cms: readonly ColumnMention[], used: Set<number>): void {
  const mentioned = bestColumn(plan, cms, (c) => c.kind === 'date');
  let target: { t: IndexedTable; c: IndexedColumn } | undefined = mentioned ? { t: mentioned.table, c: mentioned.column } : undefined;
  if (!target) {
    for (const t of plan.joined()) {
      const dates = t.columns.filter((c) => c.kind === 'date');
      const c = dates.find((d) => /^(created_at|created|order_date|ordered_at|placed_at|date)$/.test(d.column.name)) ?? dates[0];
      if (c) {
        target = { t, c };
        plan.notes.push(`"${range.text}" is applied to ${t.table.name}.${c.column.name}.`);
        break;
      }
    }
  }
  if (!target || !plan.join(target.t)) {
    plan.warnings.push(`No date column found for "${range.text}".`);
    return;
  }
  plan.where.push(range.condition.replaceAll('{col}', columnRef(target.t, target.c)));
  for (let i = range.start; i < range.end; i++) used.add(i);
}

/** "per customer", "by status", "for each category", "grouped by city". */
function findGroupTarget(words: readonly Word[], tms: readonly TableMention[], cms: readonly ColumnMention[], main: IndexedTable): { table: IndexedTable; column?: IndexedColumn } | undefined {
  for (const w of words) {
    if (!['per', 'by', 'each'].includes(w.lower)) continue;
    const next = w.index + 1 + (words[w.index + 1]?.lower === 'each' ? 1 : 0);
    const col = cms.find((c) => c.start === next || c.start === next + 1);
    if (col && !(col.column.kind === 'number' && col.table === main)) return { table: col.table, column: col.column };
    const t = tms.find((m) => m.start === next || m.start === next + 1);
    if (t && t.table !== main) return { table: t.table };
    // "average rating per product" over products: the measure lives in a related table, so
    // the rows of the main table itself are the groups.
    if (t && cms.some((c) => c.table !== main && c.column.kind === 'number')) return { table: main };
  }
  return undefined;
}

function applyGroup(plan: Plan, target: { table: IndexedTable; column?: IndexedColumn }): void {
  if (!plan.join(target.table)) return;
  const col = target.column ?? labelColumn(target.table) ?? keyColumn(target.table);
  if (!col) return;
  const ref = columnRef(target.table, col);
  plan.select.push(ref);
  // Grouping "per customer" by name alone would merge two customers of the same name.
  const key = target.column ? undefined : keyColumn(target.table);
  if (key && key !== col) plan.groupBy.push(columnRef(target.table, key));
  plan.groupBy.push(ref);
  plan.notes.push(`Grouped by ${target.table.table.name}.${col.column.name}.`);
}

function measureColumn(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], text: string): { t: IndexedTable; c: IndexedColumn } | undefined {
  const mentioned = bestColumn(plan, cms, (c) => c.kind === 'number' && !c.column.name.endsWith('_id') && c.column.name !== 'id');
  if (mentioned) return { t: mentioned.table, c: mentioned.column };
  const wantsPrice = /\b(expensive|cheap|cheapest|price|cost)\b/.test(text);
  for (const t of plan.joined()) {
    const numbers = t.columns.filter((c) => c.kind === 'number' && !c.column.name.endsWith('_id') && c.column.name !== 'id');
    const c =
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

function buildAggregate(
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
    const counted = plan.fansOut() && key ? `count(DISTINCT ${columnRef(plan.main, key)})` : 'count(*)';
    plan.select.push(`${counted} AS count`);
    if (groupTarget) plan.orderBy.push('count DESC');
    return;
  }
  const measure = measureColumn(plan, words, mentions.columns, text);
  if (!measure || !plan.join(measure.t)) {
    plan.warnings.push(`No numeric column found to take the ${aggregate} of; counting rows instead.`);
    plan.select.push('count(*) AS count');
    return;
  }
  const name = `${aggregate}_${measure.c.column.name}`;
  const expr = aggregate === 'avg' ? `round(avg(${columnRef(measure.t, measure.c)}), 2)` : `${aggregate}(${columnRef(measure.t, measure.c)})`;
  plan.select.push(`${expr} AS ${name}`);
  if (groupTarget) plan.orderBy.push(`${name} DESC`);
  void used;
}

function buildTopN(
  plan: Plan,
  n: number,
  desc: boolean,
  words: readonly Word[],
  mentions: { tables: TableMention[]; columns: ColumnMention[] },
  used: Set<number>,
  text: string,
): void {
  const main = plan.main;
  const key = keyColumn(main);
  const label = labelColumn(main);
  // "customers with the most orders": rank by the number of related rows of another table.
  const related = mentions.tables.find((m) => m.table !== main && plan.join(m.table));
  const countsRelated = related !== undefined && /^(most|fewest|least|many|more|number)$/.test(words[related.start - 1]?.lower ?? '');
  const measure = countsRelated ? undefined : measureColumn(plan, words, mentions.columns.filter((c) => c.table === main || c.table === related?.table), text);
  const dir = desc ? 'DESC' : 'ASC';
  if (measure && measure.t === main) {
    plan.select.push(`${main.alias}.*`);
    plan.orderBy.push(`${columnRef(main, measure.c)} ${dir}`);
    // Ties are broken by the key so that "top 5" always names the same rows.
    if (key && key !== measure.c) plan.orderBy.push(`${columnRef(main, key)} ASC`);
    if (plan.joins.length > 0) plan.distinct = true;
  } else if (related && key) {
    const group = [columnRef(main, key), ...(label && label !== key ? [columnRef(main, label)] : [])];
    plan.select.push(...group);
    plan.groupBy.push(...group);
    if (measure) {
      const name = `total_${measure.c.column.name}`;
      plan.select.push(`sum(${columnRef(measure.t, measure.c)}) AS ${name}`);
      plan.orderBy.push(`${name} ${dir}`);
    } else {
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

function buildList(plan: Plan, groupTarget: { table: IndexedTable; column?: IndexedColumn } | undefined, text: string): void {
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

function applyComparisons(
  plan: Plan,
  comparisons: ReturnType<typeof findComparisons>,
  words: readonly Word[],
  mentions: { tables: TableMention[]; columns: ColumnMention[] },
  used: Set<number>,
): void {
  for (const cmp of comparisons) {
    const after = mentions.tables.find((m) => m.start === cmp.numberIndex + 1);
    if (after && after.table !== plan.main && plan.join(after.table)) {
      // "customers with more than 5 orders": a count of related rows.
      const key = keyColumn(plan.main);
      const rk = keyColumn(after.table);
      if (plan.groupBy.length === 0 && key) {
        if (plan.select.length === 1 && plan.select[0] === `${plan.main.alias}.*`) {
          plan.groupBy.push(columnRef(plan.main, key));
        } else {
          plan.groupBy.push(columnRef(plan.main, key));
        }
      }
      plan.having.push(`count(${rk ? columnRef(after.table, rk) : '*'}) ${cmp.op} ${cmp.value}`);
      plan.distinct = false;
      used.add(cmp.numberIndex);
      continue;
    }
    const before = [...mentions.columns].reverse().find((c) => c.end <= cmp.start && c.column.kind === 'number');
    const next = mentions.columns.find((c) => c.start > cmp.numberIndex && c.start - cmp.numberIndex <= 2 && c.column.kind === 'number');
    let target = before ?? next ? { t: (before ?? next)!.table, c: (before ?? next)!.column } : undefined;
    if (!target) {
      const m = measureColumn(plan, words, [], '');
      if (m) target = m;
    }
    if (!target || !plan.join(target.t)) {
      plan.warnings.push(`No numeric column found for "${cmp.op} ${cmp.value}".`);
      continue;
    }
    plan.where.push(`${columnRef(target.t, target.c)} ${cmp.op} ${cmp.value}`);
    used.add(cmp.numberIndex);
  }
}
