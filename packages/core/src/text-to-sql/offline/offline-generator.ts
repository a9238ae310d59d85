import type { ColumnValueSample } from '../../introspection/schema-snapshot';
import { quoteLiteral } from '../../pg/quote';
import type { GeneratedSql, GenerationRequest, SqlGenerator } from '../language-model';
import { findValueMatches, type ValueMatch } from '../value-matches';
import { findComparisons } from './comparisons';
import { findDateRange } from './date-ranges';
import { findImplicitEquals } from './implicit-equals';
import { type JoinStep, joinPath } from './join-paths';
import { Plan } from './plan';
import { applyClauses } from './apply-clauses';
import { parseClauses } from './question-clauses';
import { applyMonthGroups, applyNever, applySelfJoin } from './related-rows';
import { findTextPatterns, type TextPattern } from './text-patterns';
import { type ColumnMention, findMentions, type TableMention } from './mentions';
import { unusedLiterals } from './literal-accounting';
import { findRowReferences, type RowReference } from './row-references';
import { findNullFilters } from './null-filters';
import { distinctiveStems, relatedStems } from './related-stems';
import { columnRef, flagTest, type IndexedColumn, type IndexedTable, indexSchema, keyColumn, labelColumn } from './schema-index';
import { unsupportedConstructs } from './unsupported-constructs';
import { questionWords, STOP_WORDS, type Word } from './words';

type Aggregate = 'count' | 'sum' | 'avg' | 'max' | 'min';

const AGGREGATE_WORDS: Array<[RegExp, Aggregate]> = [
  [/\b(average|avg|mean)\b/, 'avg'],
  [/\b(sum|total)\b/, 'sum'],
  [/\b(maximum|max|highest|largest|biggest|most expensive|latest|most recent)\b/, 'max'],
  [/\b(minimum|min|lowest|smallest|cheapest|least expensive|earliest)\b/, 'min'],
];

const sqlString = quoteLiteral;

/** Past participles that take an agent with "by". */
const PARTICIPLE = /^(written|sold|driven|made|bought|taken|given|held|kept|owned|done|run|\w{3,}ed)$/;

const ADJECTIVE_MEASURES: Array<[RegExp, RegExp]> = [
  [/\b(longest|shortest|longer|shorter|duration)\b/, /length|duration|millisecond|seconds|minutes|runtime/],
  [/\b(populous|populated|inhabitants|people)\b/, /population/],
  [/\b(heaviest|lightest|heavier|lighter)\b/, /weight|mass/],
  [/\b(oldest|youngest|older|younger)\b/, /(^|_)age$/],
];

/**
 * The offline text-to-SQL generator: a small semantic parser over the retrieved schema. It maps
 * the question's words to tables, columns and enum values, recognises counts, aggregates,
 * grouping, top-N, comparisons and date ranges, and joins along foreign keys. It only ever uses
 * names from the schema it was given, and its confidence drops with every content word it could
 * not place.
 */
export class OfflineSqlGenerator implements SqlGenerator {
  readonly name = 'offline';

  constructor(private readonly options: OfflineOptions = {}) {}

  async generate(request: GenerationRequest): Promise<GeneratedSql> {
    return generateOffline(request, this.options);
  }
}

export interface OfflineOptions {
  /** Confidence below which no SQL is answered (`DBOPS_TEXT_TO_SQL_MIN_CONFIDENCE`, default {@link OFFLINE_ANSWER_THRESHOLD}; 0 answers always). */
  answerThreshold?: number;
}

/**
 * Below this confidence the offline generator does not guess: it answers no SQL and says what
 * it did not understand (the pipeline reports SQL_GENERATION_FAILED with that summary).
 * Calibrated on the tuning part of bench/text-to-sql-eval (docs/text-to-sql.md).
 */
export const OFFLINE_ANSWER_THRESHOLD = 0.5;

/** Confidence an answer keeps at most while a content word of the question was placed nowhere: below "confident" (0.8). */
const UNPLACED_WORD_CAP = 0.79;

/** Below the answering threshold (and never above 0.45), so an answer that ignores a literal is not given. */
const literalCap = (threshold: number): number => Math.min(0.45, Math.max(0.1, threshold - 0.05));

/** Enum columns of the given tables as value samples, so enum labels are matched like sampled values. */
function enumSamples(tables: readonly IndexedTable[]): ColumnValueSample[] {
  return tables.flatMap((t) =>
    t.columns.filter((c) => c.kind === 'enum').map((c) => ({ schema: t.table.schema, table: t.table.name, column: c.column.name, values: c.enumValues })),
  );
}

const capitalised = (w: Word): boolean => !w.sentenceStart && /^[A-Z]/.test(w.text);

export function generateOffline(request: GenerationRequest, options: OfflineOptions = {}): GeneratedSql {
  const tables = indexSchema(
    request.tables.map((t) => t.table),
    request.enums,
    request.values ?? [],
  );
  const original = questionWords(request.question);
  // "Produce a list of", "Return the id and name", "sorted by cost", "the first 10": read apart,
  // and hidden from the matching of tables, columns and values.
  const clauses = parseClauses(original);
  const hidden = new Set([...clauses.dismissed, ...clauses.masked]);
  const visible = original.map((w) => (hidden.has(w.index) ? { ...w, kind: 'word' as const, stem: '\u0001', lower: '\u0001' } : w));
  // Values the database holds ("Brazil", "PG-13", "Sales Support Agent") are found before names
  // of tables and columns, so "Sales Support Agents" is not read as the support_rep_id column;
  // a single lower-case word that also names a table or column stays a name.
  const premention = findMentions(visible, tables);
  const samples = [...(request.values ?? []), ...enumSamples(tables)];
  const known = new Set(tables.map((t) => `${t.table.schema}.${t.table.name}`));
  const participleValues: string[] = [];
  const valueMatches = findValueMatches(
    visible,
    samples.filter((v) => known.has(`${v.schema}.${v.table}`)),
  ).filter((m) => {
    const w = original[m.start]!;
    // "orders placed in 2023", "were placed by": a lower-case past participle followed by a
    // preposition is the verb, even where a status column holds the same word.
    if (
      m.end - m.start === 1 &&
      w.kind === 'word' &&
      /ed$/.test(w.text) &&
      /^(in|on|by|after|before|during|since|between|at|a|an|the|any)$/.test(original[m.end]?.lower ?? '')
    ) {
      participleValues.push(w.text);
      return false;
    }
    if (m.end - m.start > 1 || w.kind === 'quoted' || capitalised(w)) return true;
    return !premention.used.has(m.start);
  });
  // "title contains the word 'Garden'": a pattern, not a value to equal.
  const patterns = findTextPatterns(visible);
  for (let k = valueMatches.length - 1; k >= 0; k--) {
    if (patterns.some((p) => valueMatches[k]!.start < p.end && valueMatches[k]!.end > p.start)) valueMatches.splice(k, 1);
  }
  const valueWords = new Set(valueMatches.flatMap((m) => Array.from({ length: m.end - m.start }, (_, k) => m.start + k)));
  const words = visible.map((w) => (valueWords.has(w.index) ? { ...w, kind: 'quoted' as const, stem: '\u0000' } : w));
  const lower = words.map((w) => w.lower);
  const text = ` ${lower.join(' ')} `;
  const mentions = findMentions(words, tables);
  const used = new Set([...mentions.used, ...valueWords, ...hidden]);

  const valueTables = valueMatches
    .map((m) => tables.find((t) => m.holders.some((h) => h.sample.schema === t.table.schema && h.sample.table === t.table.name)))
    .filter((t): t is IndexedTable => t !== undefined);
  const main = chooseMain(text, words, mentions.tables, mentions.columns, tables, valueTables) ?? valueTables[0];
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
  // Read as a verb, but a value of the data too: the other reading stays possible.
  for (const v of participleValues) plan.doubt(`"${v}" was read as a verb, though it is also a value in the data`, 0.25);
  // "the average number of pages": an average of the pages column, not a count.
  const isCount = /\b(how many|number of|count)\b/.test(text.replace(/\b(average|mean|total|sum of the|sum of) number of\b/g, '$1'));
  // "total" is an aggregate unless it names a column ("orders with total over 100").
  const freeText = ` ${words.map((w) => (mentions.used.has(w.index) ? '_' : w.lower)).join(' ')} `;
  const sumPhrase = words.some(
    (w) =>
      /^(total|sum)$/.test(w.lower) &&
      // "total of ...", "total quantity", "total payment amount": a numeric column within three words.
      (words[w.index + 1]?.lower === 'of' || mentions.columns.some((c) => c.start > w.index && c.start - w.index <= 3 && c.column.kind === 'number')),
  );
  // "What is the total invoiced...": "the total" asks for a sum even where `total` is also a column.
  const theTotal = /\b(the|a) total\b(?! (over|above|under|below|more|less|greater|of \d))/.test(text);
  const aggregate = isCount ? undefined : (AGGREGATE_WORDS.find(([re]) => re.test(freeText))?.[1] ?? (sumPhrase || theTotal ? 'sum' : undefined));

  applyValueMatches(plan, valueMatches, original, mentions.columns, samples, used);
  applyEnumAndBooleanFilters(plan, words, mentions.columns, used);
  applyNullFilters(plan, words, mentions.columns, used);
  applyTextPatterns(plan, patterns, mentions.columns, used);
  // Dates before capitalised names: "in October 2023" is a month, not a name.
  const dateRange = findDateRange(lower);
  if (dateRange) applyDateRange(plan, dateRange, words, mentions.columns, used);
  applyValueFilters(plan, words, mentions.columns, mentions.tables, used);
  applyRowReferences(
    plan,
    findRowReferences(words, mentions.tables, (i) => !used.has(i)),
    used,
  );
  const isNumber = (i: number): boolean => words[i]?.kind === 'number' && !used.has(i);
  const explicit = findComparisons(lower, isNumber);
  const numericEnds = mentions.columns.filter((c) => c.column.kind === 'number').map((c) => c.end);
  const comparisons = [...explicit, ...findImplicitEquals(lower, numericEnds, isNumber, explicit)];

  // Top-N: "top 5 X by Y", "5 most expensive X", "which X has the most Y", "which 3 X have the highest Y".
  const topMatch =
    /\btop (\d+)\b/.exec(text) ??
    /\b(\d+) (?:most|least|highest|lowest|largest|smallest|biggest|best|cheapest|longest|shortest|oldest|newest)\b/.exec(text) ??
    /\b(?:which|what|the) (\d+) \w+(?: \w+)? (?:has|have|had|with|by) (?:the )?(?:most|highest|lowest|largest|smallest|biggest|fewest|least|longest|shortest)\b/.exec(
      text,
    );
  const which =
    /\b(which|what) (\w+ ){0,3}(has|have|had|is|are|with|did|does|\w+ed)? ?(the )?(most|highest|largest|biggest|fewest|least|lowest|smallest|longest|shortest)\b/.test(
      text,
    );
  const superlativeEntity =
    /\bthe (most expensive|cheapest|largest|biggest|smallest|highest|lowest|latest|newest|oldest|earliest|longest|shortest|most populous|least populous)\b/.test(
      text,
    ) &&
    !/\bthe (highest|lowest|largest|smallest) \w+ of\b/.test(text) &&
    !/\b(what|when) (is|was) the (\w+ )?(date|day|time)\b/.test(text);

  // "the total quantity": `total` says sum; the measure is the column that follows it.
  mentions.columns = mentions.columns.filter(
    (c) =>
      !(
        c.end - c.start === 1 &&
        /^(total|sum)$/.test(words[c.start]!.lower) &&
        mentions.columns.some((o) => o.start > c.start && o.start - c.end <= 2 && o.column.kind === 'number')
      ),
  );
  const groupTarget = findGroupTarget(words, mentions.tables, mentions.columns, main, tables);

  // "Rank the books by price, most expensive first": every row with its rank (ties share one).
  const ranking = /^rank(ed)?$/.test(words[0]?.lower ?? '') || /\b(with|and) (the|their|its) rank\b/.test(text);
  // "the lowest and the highest price": both, over the same measure.
  const bothExtremes = !isCount && /\b(lowest|minimum|smallest|cheapest|min)\b/.test(freeText) && /\b(highest|maximum|largest|max|dearest)\b/.test(freeText);
  if (bothExtremes) {
    buildAggregate(plan, 'min', words, mentions, groupTarget, used, text);
    const min = plan.select.findIndex((x) => x.startsWith('min('));
    if (min >= 0) plan.select.push(plan.select[min]!.replace(/^min\(/, 'max(').replace(/ AS min_/, ' AS max_'));
  } else if (ranking) {
    buildList(plan, undefined, text);
    applyRanking(plan, words, mentions.columns, used);
  } else if (topMatch || which || (superlativeEntity && !isCount && !groupTarget)) {
    const n = topMatch ? Number(topMatch[1]) : 1;
    const desc = !/\b(least|fewest|lowest|smallest|cheapest|oldest|earliest|bottom|shortest)\b/.test(text);
    buildTopN(plan, n, desc, words, mentions, used, text, aggregate);
  } else if (isCount || aggregate) {
    buildAggregate(plan, isCount ? 'count' : (aggregate as Aggregate), words, mentions, groupTarget, used, text);
  } else {
    buildList(plan, groupTarget, text);
  }
  applyComparisons(plan, comparisons, words, mentions, used);
  applyClauses(plan, clauses, original, mentions.columns, used);
  const none = applyNever(plan, words, mentions.tables, used);
  for (const t of mentions.tables) if (t.table !== main && t !== none) plan.join(t.table);
  const selfJoined = applySelfJoin(plan, words, plan.nullTested, used);
  const monthly = applyMonthGroups(plan, words, used);

  // "fewer units in stock than their reorder level": a comparison with no number the rules place.
  if (/\bthan\b/.test(text) && comparisons.length === 0) plan.doubt('a comparison ("than") that was not applied', 0.3);
  const sqlText = plan.sql();
  // A column the question names that the SQL does not use is a part of the question left
  // unanswered ("fewer units in stock than their reorder level" with no comparison of the two).
  const unused = unusedMentions(plan, mentions.columns, sqlText);
  for (const m of unused) for (let i = m.start; i < m.end; i++) used.delete(i);
  const unplaced = words.filter((w) => w.kind === 'word' && !used.has(w.index) && !STOP_WORDS.has(w.lower) && !STOP_WORDS.has(w.stem) && w.lower.length > 2);
  // A construct word that names a column ("the percentage column") is not the construct.
  const unsupported = unsupportedConstructs(freeText).filter(
    (u) => !(u === 'a negation over related rows' && (plan.nullTested.length > 0 || none !== undefined)) && !(u === 'grouping by time period' && monthly),
  );
  void selfJoined;
  const doubts = plan.doubts.reduce((a, d) => a + d.cost, 0);
  let confidence = Math.max(0.1, Math.min(1, 1 - 0.12 * unplaced.length - (plan.warnings.length > 0 ? 0.15 : 0) - doubts));
  if (unsupported.length > 0) confidence = Math.min(confidence, 0.4);
  const threshold = options.answerThreshold ?? OFFLINE_ANSWER_THRESHOLD;
  // An answer that ignores a number, a quoted string, a date or a value of the question answers
  // another question ("rentals of customer 100" answered with all rentals): never given.
  const ignored = unusedLiterals(original, valueMatches, sqlText);
  if (ignored.length > 0) {
    confidence = Math.min(confidence, literalCap(threshold));
    plan.warnings.push(`I did not use: ${ignored.map((l) => l.text).join(', ')}.`);
  }
  // A content word left over is part of the question the SQL may not answer: the answer is
  // given (most such words are verbs like "made" or "kept") but never as a confident one.
  if (unplaced.length > 0) {
    confidence = Math.min(confidence, UNPLACED_WORD_CAP);
    if (ignored.length === 0) plan.warnings.push(`I did not use: ${unplaced.map((w) => w.text).join(', ')}.`);
    else plan.warnings[plan.warnings.length - 1] = `I did not use: ${[...ignored.map((l) => l.text), ...unplaced.map((w) => w.text)].join(', ')}.`;
  }
  const notUnderstood = [
    ...(ignored.length > 0 ? [`${ignored.map((l) => `"${l.text}"`).join(', ')} (not used by the SQL)`] : []),
    ...(unplaced.length > 0 ? [`the words ${unplaced.map((w) => `"${w.text}"`).join(', ')}`] : []),
    ...plan.doubts.map((d) => d.what),
    ...unsupported,
  ];
  if (unplaced.length > 0) plan.warnings.push(`Not matched to the schema: ${unplaced.map((w) => w.text).join(', ')}.`);
  for (const d of plan.doubts) plan.warnings.push(`Assumed: ${d.what}.`);
  if (unsupported.length > 0)
    plan.warnings.push(`The question asks for ${unsupported.join(' and ')}, which the offline generator cannot express; the SQL is a partial answer.`);
  confidence = Number(confidence.toFixed(2));
  const sql = sqlText;
  const referenced = plan.joined().map((t) => `${t.table.schema}.${t.table.name}`);
  const reasoning = [`Main table: ${main.table.schema}.${main.table.name}.`, ...plan.notes].join(' ');
  if (confidence < threshold) {
    return {
      sql: '',
      confidence,
      reasoning: `${reasoning} Best attempt, not run: ${sql.replace(/\s+/g, ' ')}`,
      referenced_tables: referenced,
      warnings: [
        `Not answered: the offline generator did not understand ${notUnderstood.join('; ') || 'enough of the question'} (confidence ${confidence}). Rephrase with the names of the tables, columns or values you mean.`,
        ...plan.warnings,
      ],
    };
  }
  return { sql, confidence, reasoning, referenced_tables: referenced, warnings: plan.warnings };
}

/**
 * Filters for the values the question names: each goes to the column holding it. When several
 * columns hold it, the one the question names ("billing country"), else one of the main table,
 * else the nearest by joins is taken, and the doubt is recorded.
 */
function applyValueMatches(
  plan: Plan,
  matches: readonly ValueMatch[],
  words: readonly Word[],
  cms: readonly ColumnMention[],
  samples: readonly ColumnValueSample[],
  used: Set<number>,
): void {
  const sampledColumns = new Set(samples.map((v) => `${v.table}.${v.column}`));
  for (const m of matches) {
    const holders = m.holders
      .map((h) => ({ ...h, t: plan.tables.find((t) => t.table.schema === h.sample.schema && t.table.name === h.sample.table) }))
      .filter((h): h is typeof h & { t: IndexedTable } => h.t !== undefined)
      .map((h) => ({ ...h, c: h.t.columns.find((c) => c.column.name === h.sample.column) }))
      .filter((h): h is typeof h & { c: IndexedColumn } => h.c !== undefined);
    if (holders.length === 0) continue;
    const phrase = words
      .slice(m.start, m.end)
      .map((w) => w.text)
      .join(' ');
    // "composed by Jimi Hendrix": a text column named just before the value, whose values were
    // not sampled, is where the value belongs, even if another column holds the same text.
    const before = [...cms].reverse().find((c) => c.end <= m.start && m.start - c.end <= 2 && c.column.kind === 'text') ?? verbColumn(plan, words, m.start);
    if (
      before &&
      !holders.some((h) => h.t === before.table && h.c === before.column) &&
      !sampledColumns.has(`${before.table.table.name}.${before.column.column.name}`) &&
      plan.join(before.table)
    ) {
      for (let i = before.start; i < before.end; i++) used.add(i);
      plan.where.push(`${columnRef(before.table, before.column)} = ${sqlString(phrase)}`);
      plan.notes.push(`"${phrase}" is compared with ${before.table.table.name}.${before.column.column.name}, named just before it.`);
      plan.doubt(`"${phrase}" was compared with ${before.table.table.name}.${before.column.column.name}, whose values were not sampled`, 0.1);
      continue;
    }
    const named = holders.filter((h) => cms.some((c) => c.table === h.t && c.column === h.c));
    const distance = (t: IndexedTable): number => (t === plan.main ? 0 : (joinPath(plan.tables, plan.main, t)?.length ?? 99));
    // At the same distance, a column of few values (a category, an enum) is likelier the filter
    // than a column naming rows ("countries in Antarctica": the continent, not the country).
    const ranked = [...(named.length > 0 ? named : holders)].sort((a, b) => distance(a.t) - distance(b.t) || a.sample.values.length - b.sample.values.length);
    const best = ranked[0]!;
    const rivals = ranked.filter((h) => h !== best && distance(h.t) === distance(best.t));
    if (!plan.join(best.t)) continue;
    if (best.c.kind === 'boolean') continue;
    plan.where.push(`${columnRef(best.t, best.c)} = ${sqlString(best.value)}`);
    plan.notes.push(`"${phrase}" is a value of ${best.t.table.name}.${best.c.column.name}.`);
    if (rivals.length > 0) {
      plan.doubt(
        `"${phrase}" is also a value of ${rivals.map((r) => `${r.t.table.name}.${r.c.column.name}`).join(', ')}; ${best.t.table.name}.${best.c.column.name} was taken`,
        0.25,
      );
    }
  }
}

/**
 * Column mentions whose column (or, for several columns named by the same words, none of them)
 * the SQL does not reference; `t.*` of the column's table counts as a reference.
 */
function unusedMentions(plan: Plan, cms: readonly ColumnMention[], sql: string): ColumnMention[] {
  const bySpan = new Map<string, ColumnMention[]>();
  for (const m of cms) bySpan.set(`${m.start}:${m.end}`, [...(bySpan.get(`${m.start}:${m.end}`) ?? []), m]);
  const referenced = (m: ColumnMention): boolean =>
    plan.joined().includes(m.table) &&
    (sql.includes(columnRef(m.table, m.column)) ||
      sql.includes(`${m.table.alias}.*`) ||
      // "how many languages" over country_language(language): the word names the rows counted.
      (m.table === plan.main && m.column.stems.every((s) => m.table.stems.includes(s))));
  return [...bySpan.values()].filter((group) => !group.some(referenced)).map((group) => group[0]!);
}

/** True when `step` goes from a row to the one row it refers to (many-to-one). */
const toOne = (step: JoinStep): boolean =>
  step.from.table.foreign_keys.some(
    (fk) => fk.referenced_table === step.to.table.name && fk.referenced_schema === step.to.table.schema && fk.columns.every((c, i) => step.on[i]?.[0] === c),
  );

/**
 * "composed by X", "directed by X", "located in X": the verb just before a value names a text
 * column of the main table (composer), matched by stem.
 */
function verbColumn(plan: Plan, words: readonly Word[], at: number): ColumnMention | undefined {
  const link = words[at - 1];
  const verb = words[at - 2];
  if (!link || !verb || !['by', 'in', 'from', 'at'].includes(link.lower) || verb.kind !== 'word' || STOP_WORDS.has(verb.lower)) return undefined;
  const column = plan.main.columns.find((c) => c.kind === 'text' && distinctiveStems(c.stems).some((s) => relatedStems(s, verb.stem)));
  return column ? { table: plan.main, column, start: at - 2, end: at - 1 } : undefined;
}

function applyNullFilters(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], used: Set<number>): void {
  const order = [plan.main, ...plan.tables.filter((t) => t !== plan.main)];
  const found = findNullFilters(words, order, cms).filter((f) => !f.words.some((i) => used.has(i) && words[i]?.kind === 'quoted'));
  const taken = new Set<number>();
  for (const f of found) {
    if (f.words.some((i) => taken.has(i)) || !plan.join(f.table)) continue;
    plan.where.push(`${columnRef(f.table, f.column)} IS ${f.isNull ? '' : 'NOT '}NULL`);
    plan.nullTested.push(f.column.column.name);
    plan.notes.push(
      `"${f.words.map((i) => words[i]?.text).join(' ')}" is read as ${f.table.table.name}.${f.column.column.name} IS ${f.isNull ? '' : 'NOT '}NULL.`,
    );
    for (const i of f.words) {
      taken.add(i);
      used.add(i);
    }
  }
}

function chooseMain(
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
function bestColumn(plan: Plan, candidates: readonly ColumnMention[], predicate: (c: IndexedColumn) => boolean): ColumnMention | undefined {
  const ok = candidates.filter((c) => predicate(c.column));
  // A column of a table no foreign key reaches (a view, say) cannot be used: the next best is.
  return (
    ok.find((c) => c.table === plan.main) ??
    ok.find((c) => plan.joined().includes(c.table)) ??
    ok.find((c) => joinPath(plan.tables, plan.main, c.table) !== null)
  );
}

function applyEnumAndBooleanFilters(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], used: Set<number>): void {
  const spans = new Set<string>();
  for (const m of [...cms].sort((a, b) => Number(a.column.intFlag) - Number(b.column.intFlag))) {
    if (m.column.kind !== 'boolean' || spans.has(`${m.start}:${m.end}`)) continue;
    // "official languages" over countries: the flag's table is joined to filter on it.
    if (!plan.joined().includes(m.table) && !(cms.filter((c) => c.start === m.start).length === 1 && plan.join(m.table))) continue;
    const negated = ['not', 'non', 'no'].includes(words[m.start - 1]?.lower ?? '');
    plan.where.push(flagTest(m.table, m.column, !negated));
    spans.add(`${m.start}:${m.end}`);
  }
  for (const w of words) {
    if ((w.kind !== 'word' && w.kind !== 'quoted') || used.has(w.index)) continue;
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
        plan.where.push(flagTest(t, col, positive));
        used.add(w.index);
        break;
      }
    }
  }
}

/**
 * "rentals of customer 100": the main table's foreign key to the customer is compared with 100
 * (no join needed); a row of the main table itself, or of a table only reachable by joins, is
 * compared on that table's key.
 */
function applyRowReferences(plan: Plan, refs: readonly RowReference[], used: Set<number>): void {
  for (const r of refs) {
    const key = keyColumn(r.table);
    if (!key) continue;
    const fk =
      r.table === plan.main
        ? undefined
        : plan.main.table.foreign_keys.find(
            (f) => f.referenced_schema === r.table.table.schema && f.referenced_table === r.table.table.name && f.columns.length === 1,
          );
    const fkColumn = fk ? plan.main.columns.find((c) => c.column.name === fk.columns[0]) : undefined;
    let ref: string;
    if (fkColumn) ref = columnRef(plan.main, fkColumn);
    else if (plan.join(r.table)) ref = columnRef(r.table, key);
    else continue;
    plan.where.push(r.values.length === 1 ? `${ref} = ${r.values[0]}` : `${ref} IN (${r.values.join(', ')})`);
    plan.notes.push(`${r.table.table.name} ${r.values.join(', ')} is read as ${ref} = ${r.values.join(' or ')}.`);
    for (const i of r.words) used.add(i);
  }
}

/** LIKE patterns on the text column named just before the verb, else on the main table's label (a guess). */
function applyTextPatterns(plan: Plan, patterns: readonly TextPattern[], cms: readonly ColumnMention[], used: Set<number>): void {
  for (const p of patterns) {
    const named = [...cms].reverse().find((c) => c.end <= p.verb && p.verb - c.end <= 1 && c.column.kind === 'text');
    const label = labelColumn(plan.main);
    const target = named ? { t: named.table, c: named.column } : label ? { t: plan.main, c: label } : undefined;
    if (!target || !plan.join(target.t)) continue;
    plan.where.push(`${columnRef(target.t, target.c)} LIKE ${sqlString(p.pattern)}`);
    if (!named) plan.doubt(`the pattern '${p.pattern}' was put on ${target.t.table.name}.${target.c.column.name}, a column the question did not name`, 0.15);
    for (let i = p.verb; i < p.end; i++) used.add(i);
  }
}

/** rank() over the numeric column named after "by" (or the first one named), highest first unless asked otherwise. */
function applyRanking(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], used: Set<number>): void {
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

/** `col ILIKE 'value'` with LIKE's wildcards escaped: equality without regard to case. */
const caseInsensitiveEquals = (ref: string, value: string): string => `${ref} ILIKE ${sqlString(value.replace(/[\\%_]/g, (c) => `\\${c}`))}`;

/**
 * Quoted strings and capitalised names the sampled values do not know: "named 'Alice'", "from
 * Berlin", "by Jimi Hendrix" (consecutive capitalised words are one name). The column named just
 * before says where it belongs; else the label of a table named next to it; else a guess on the
 * main table, which costs confidence.
 */
function applyValueFilters(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], tms: readonly TableMention[], used: Set<number>): void {
  const proper = (w: Word | undefined): w is Word =>
    w !== undefined && w.kind === 'word' && /^[A-Z]/.test(w.text) && !w.sentenceStart && !used.has(w.index) && !STOP_WORDS.has(w.lower);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (used.has(w.index) || (w.kind !== 'quoted' && !proper(w))) continue;
    let end = i + 1;
    // "Jimi Hendrix", "Elisabeth II", "Let There Be Rock": capitalised words (and numbers) that follow.
    if (w.kind !== 'quoted') while (proper(words[end]) || (words[end]?.kind === 'number' && proper(words[end - 1]) && !used.has(end))) end++;
    const phrase = words
      .slice(i, end)
      .map((x) => x.text)
      .join(' ');
    const col = [...cms].reverse().find((c) => c.end <= i && i - c.end <= 2 && (c.column.kind === 'text' || c.column.kind === 'other'));
    const tbl = [...tms].reverse().find((t) => (t.end <= i && i - t.end <= 2) || (t.start >= end && t.start - end <= 0));
    let target: { t: IndexedTable; c: IndexedColumn } | undefined;
    let cost: number;
    if (col) {
      target = { t: col.table, c: col.column };
      cost = 0.1;
    } else if (tbl && tbl.table !== plan.main) {
      const label = labelColumn(tbl.table);
      if (label) target = { t: tbl.table, c: label };
      cost = 0.2;
    } else {
      const texts = plan.main.columns.filter((c) => c.kind === 'text');
      const place = ['city', 'country', 'state', 'region', 'location', 'name', 'title'].map((n) => texts.find((c) => c.column.name === n)).find(Boolean);
      const label = place ?? labelColumn(plan.main);
      if (label) target = { t: plan.main, c: label };
      cost = 0.35;
    }
    if (!target || !plan.join(target.t)) continue;
    plan.where.push(caseInsensitiveEquals(columnRef(target.t, target.c), phrase));
    plan.notes.push(`"${phrase}" is compared with ${target.t.table.name}.${target.c.column.name}.`);
    plan.doubt(`"${phrase}" is not a value seen in the database; it was compared with ${target.t.table.name}.${target.c.column.name}`, cost);
    for (let k = i; k < end; k++) used.add(k);
    i = end - 1;
  }
}

function applyDateRange(
  plan: Plan,
  range: NonNullable<ReturnType<typeof findDateRange>>,
  words: readonly Word[],
  cms: readonly ColumnMention[],
  used: Set<number>,
): void {
  const mentioned = bestColumn(plan, cms, (c) => c.kind === 'date' || c.yearLike);
  let target: { t: IndexedTable; c: IndexedColumn } | undefined = mentioned ? { t: mentioned.table, c: mentioned.column } : undefined;
  if (!target) {
    // "hired in 2003" is hire_date, "released in 2006" is release_year: the verb names the column.
    const free = words.filter((w) => w.kind === 'word' && !used.has(w.index) && (w.index < range.start || w.index >= range.end));
    const candidates = plan
      .joined()
      .flatMap((t) => t.columns.filter((c) => c.kind === 'date' || (c.yearLike && range.year !== undefined)).map((c) => ({ t, c })));
    const named = candidates.filter(({ c }) => distinctiveStems([...c.stems, ...c.commentStems]).some((s) => free.some((w) => relatedStems(s, w.stem))));
    const pick = named[0];
    if (pick) {
      target = pick;
      for (const w of free) if (distinctiveStems([...pick.c.stems, ...pick.c.commentStems]).some((s) => relatedStems(s, w.stem))) used.add(w.index);
      plan.notes.push(`"${range.text}" is applied to ${pick.t.table.name}.${pick.c.column.name}.`);
    }
  }
  if (!target) {
    for (const t of plan.joined()) {
      const dates = t.columns.filter((c) => c.kind === 'date');
      const c =
        dates.find((d) => /^(created_at|created|order_date|ordered_at|placed_at|date)$/.test(d.column.name)) ??
        dates.find((d) => d.stems.some((s) => t.stems.includes(s))) ??
        dates[0];
      if (c) {
        target = { t, c };
        plan.notes.push(`"${range.text}" is applied to ${t.table.name}.${c.column.name}.`);
        // A table with several dates and none named: which one was meant is a guess.
        if (dates.length > 1 && !/^(created_at|created|order_date|ordered_at|placed_at|date)$/.test(c.column.name))
          plan.doubt(`"${range.text}" was applied to ${t.table.name}.${c.column.name}`, 0.15);
        break;
      }
    }
  }
  if (!target || !plan.join(target.t)) {
    plan.warnings.push(`No date column found for "${range.text}".`);
    return;
  }
  const ref = columnRef(target.t, target.c);
  plan.where.push(target.c.yearLike && range.year ? `${ref} ${range.year.op} ${range.year.value}` : range.condition.replaceAll('{col}', ref));
  for (let i = range.start; i < range.end; i++) used.add(i);
}

/** "per customer", "by status", "for each category", "grouped by city". */
function findGroupTarget(
  words: readonly Word[],
  tms: readonly TableMention[],
  cms: readonly ColumnMention[],
  main: IndexedTable,
  tables: readonly IndexedTable[],
): { table: IndexedTable; column?: IndexedColumn } | undefined {
  for (const w of words) {
    if (!['per', 'by', 'each'].includes(w.lower)) continue;
    // "written by authors from Canada", "placed by buyers": the agent of a verb, not a grouping.
    if (w.lower === 'by' && PARTICIPLE.test(words[w.index - 1]?.lower ?? '')) continue;
    const next = w.index + 1 + (words[w.index + 1]?.lower === 'each' ? 1 : 0);
    const at = cms.filter((c) => c.start === next || c.start === next + 1);
    // The same words may name a column of several tables: the main table's, else one it can join.
    const col = at.find((c) => c.table === main) ?? at.find((c) => joinPath(tables, main, c.table) !== null) ?? at[0];
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

function measureColumn(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], text: string): { t: IndexedTable; c: IndexedColumn } | undefined {
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
function personLabels(t: IndexedTable): IndexedColumn[] | undefined {
  const first = t.columns.find((c) => c.column.name === 'first_name');
  const last = t.columns.find((c) => c.column.name === 'last_name');
  return first && last ? [first, last] : undefined;
}

/** The money column of a table referring to the main one, when the question is about spending. */
function spendingNeighbour(plan: Plan, text: string): { t: IndexedTable; c: IndexedColumn } | undefined {
  if (!/\b(spent|spend|spends|paid|pays|revenue|sales|sold|earned|invoiced|bought)\b/.test(text)) return undefined;
  for (const t of plan.tables) {
    if (t === plan.main || !t.table.foreign_keys.some((f) => f.referenced_table === plan.main.table.name && f.referenced_schema === plan.main.table.schema))
      continue;
    const c = t.columns.find((x) => x.kind === 'number' && /^(total|amount|total_amount|price|revenue)$/.test(x.column.name));
    if (c) return { t, c };
  }
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

function buildTopN(
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
    const aggregated = plan.select.some((x) => x.includes('('));
    // "authors whose books cover more than 4 different genres": distinct values per row of the main table.
    const distinctOf = ['different', 'distinct'].includes(words[cmp.numberIndex + 1]?.lower ?? '')
      ? mentions.columns.find((c) => c.start === cmp.numberIndex + 2)
      : undefined;
    const mainKey = keyColumn(plan.main);
    if (distinctOf && mainKey && !aggregated && plan.join(distinctOf.table)) {
      const label = labelColumn(plan.main);
      const group = [columnRef(plan.main, mainKey), ...(label && label !== mainKey ? [columnRef(plan.main, label)] : [])];
      const counted = `count(DISTINCT ${columnRef(distinctOf.table, distinctOf.column)})`;
      plan.select.splice(0, plan.select.length, ...group, `${counted} AS count`);
      plan.groupBy.splice(0, plan.groupBy.length, ...group);
      plan.having.push(`${counted} ${cmp.op} ${cmp.value}`);
      plan.distinct = false;
      for (const i of [cmp.numberIndex, cmp.numberIndex + 1]) used.add(i);
      continue;
    }
    // "genres that have more than 10 books" over books: the column's values are the groups.
    const subject =
      after && after.table === plan.main && (!aggregated || plan.groupBy.length > 0)
        ? mentions.columns.find((c) => c.table === plan.main && c.end <= cmp.start && (c.column.kind === 'text' || c.column.kind === 'enum'))
        : undefined;
    if (subject && (!aggregated || plan.groupBy.includes(columnRef(plan.main, subject.column)))) {
      const ref = columnRef(plan.main, subject.column);
      if (!aggregated) {
        plan.select.splice(0, plan.select.length, ref, 'count(*) AS count');
        plan.groupBy.splice(0, plan.groupBy.length, ref);
      }
      plan.having.push(`count(*) ${cmp.op} ${cmp.value}`);
      plan.distinct = false;
      used.add(cmp.numberIndex);
      continue;
    }
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
    let target = (before ?? next) ? { t: (before ?? next)!.table, c: (before ?? next)!.column } : undefined;
    // "published from 1990 to 1999": a year goes to the column holding years.
    const yearColumn = /^(1[5-9]|20)\d{2}$/.test(cmp.value) ? plan.main.columns.find((c) => c.yearLike) : undefined;
    if (!target && yearColumn) target = { t: plan.main, c: yearColumn };
    if (!target) {
      const m = measureColumn(plan, words, [], words.map((w) => w.lower).join(' '));
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
