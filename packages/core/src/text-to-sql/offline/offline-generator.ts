import type { ColumnValueSample } from '../../introspection/schema-snapshot';
import type { GeneratedSql, GenerationRequest, SqlGenerator } from '../language-model';
import { findValueMatches } from '../value-matches';
import { findComparisons } from './comparisons';
import { findDateRange } from './date-ranges';
import { findImplicitEquals } from './implicit-equals';
import { Plan } from './plan';
import { applyClauses } from './apply-clauses';
import { parseClauses } from './question-clauses';
import { applyMonthGroups, applyNever, applySelfJoin } from './related-rows';
import { findTextPatterns } from './text-patterns';
import { type ColumnMention, findMentions } from './mentions';
import { unusedLiterals } from './literal-accounting';
import { aggregateForRow, ambiguousColumns } from './ambiguity';
import { performedOperatorWords, unperformedOperatorWords } from './operator-words';
import { findRowReferences } from './row-references';
import { columnRef, type IndexedTable, indexSchema } from './schema-index';
import { unsupportedConstructs } from './unsupported-constructs';
import { questionWords, STOP_WORDS, type Word } from './words';
import { AGGREGATE_WORDS, type Aggregate, buildAggregate, buildList, buildTopN, chooseMain, findGroupTarget, applyRanking } from './shapes';
import {
  applyComparisons,
  applyDateRange,
  applyEnumAndBooleanFilters,
  applyNullFilters,
  applyRowReferences,
  applyTextPatterns,
  applyValueFilters,
  applyValueMatches,
} from './filters';

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

/** Stop words that can still name a column ("the name of its depot"): counted when that column goes unused. */
const NAME_WORDS = new Set(['name', 'named', 'value', 'amount']);

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
  plan.named = new Set([...mentions.tables.map((t) => t.table), ...valueTables]);
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
    words,
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
  if (groupTarget?.agentLike && plan.groupBy.length > 0) {
    const by = groupTarget.column ? `${groupTarget.table.table.name}.${groupTarget.column.column.name}` : groupTarget.table.table.name;
    plan.ambiguous(`"by" was read as groups of ${by}, though it may name who did what the verb before it says`);
  }
  applyComparisons(plan, comparisons, words, mentions, used);
  applyClauses(plan, clauses, original, mentions.columns, used);
  const none = applyNever(plan, words, mentions.tables, used);
  for (const t of mentions.tables) if (t.table !== main && t !== none) plan.join(t.table);
  const selfJoined = applySelfJoin(plan, words, plan.nullTested, used);
  const monthly = applyMonthGroups(plan, words, used);
  plan.settle();

  // "fewer units in stock than their reorder level": a comparison with no number the rules place.
  if (/\bthan\b/.test(text) && comparisons.length === 0) plan.doubt('a comparison ("than") that was not applied', 0.3);
  const sqlText = plan.sql();
  // A column the question names that the SQL does not use is a part of the question left
  // unanswered ("fewer units in stock than their reorder level" with no comparison of the two).
  const unused = unusedMentions(plan, mentions.columns, sqlText);
  for (const m of unused) for (let i = m.start; i < m.end; i++) used.delete(i);
  // "the name of its depot" where the SQL shows no depot name: "name" is a stop word, but here it
  // named a column the answer does not give.
  const unusedNames = new Set(
    unused.flatMap((m) =>
      words
        .slice(m.start, m.end)
        .filter((w) => NAME_WORDS.has(w.lower))
        .map((w) => w.index),
    ),
  );
  // The output sentence is read here too ("return the status and the average shipping fee" must
  // have an avg()); only "without duplicates" there is the clause's own.
  const placedElsewhere = new Set([
    ...mentions.used,
    ...valueWords,
    ...clauses.dismissed,
    ...[...clauses.masked].filter((i) => /^(without|duplicates|distinct|unique)$/.test(original[i]!.lower)),
  ]);
  // "the average fee" with no avg(), "not in Leeds" with no negation: an operation asked for and not done.
  const unperformed = new Set(unperformedOperatorWords(original, (i) => placedElsewhere.has(i), sqlText).map((w) => w.index));
  // ... and one whose operation is there ("fewest" and `ORDER BY ... ASC`) is placed by it.
  for (const w of performedOperatorWords(original, (i) => placedElsewhere.has(i), sqlText)) used.add(w.index);
  // Words the clauses hid are judged as written: an output item's word it could not read counts.
  const unplaced = words
    .map((w) => (hidden.has(w.index) && original[w.index]!.kind === 'word' ? original[w.index]! : w))
    .filter(
      (w) =>
        unperformed.has(w.index) ||
        unusedNames.has(w.index) ||
        (w.kind === 'word' && !used.has(w.index) && !STOP_WORDS.has(w.lower) && !STOP_WORDS.has(w.stem) && w.lower.length > 2),
    );
  for (const a of ambiguousColumns(plan, mentions.columns, mentions.tables, words, sqlText)) plan.ambiguous(a);
  const rowOrValue = aggregateForRow(plan, mentions.tables, words);
  if (rowOrValue) plan.ambiguous(rowOrValue);
  // A construct word that names a column ("the percentage column") is not the construct.
  const unsupported = unsupportedConstructs(freeText).filter(
    (u) => !(u === 'a negation over related rows' && (plan.nullTested.length > 0 || none !== undefined)) && !(u === 'grouping by time period' && monthly),
  );
  void selfJoined;
  const doubts = plan.doubts.reduce((a, d) => a + d.cost, 0);
  let confidence = Math.max(0.1, Math.min(1, 1 - 0.12 * unplaced.length - (plan.warnings.length > 0 ? 0.15 : 0) - doubts));
  if (unsupported.length > 0) confidence = Math.min(confidence, 0.4);
  // A choice between near-equal readings is never a confident answer, however sure the rest is.
  // So is one where a step failed and was replaced ("counting rows instead" of a sum).
  if (plan.ambiguities.length > 0 || plan.warnings.length > 0) confidence = Math.min(confidence, UNPLACED_WORD_CAP);
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
    ...plan.ambiguities,
    ...unsupported,
  ];
  if (unplaced.length > 0) plan.warnings.push(`Not matched to the schema: ${unplaced.map((w) => w.text).join(', ')}.`);
  for (const d of plan.doubts) plan.warnings.push(`Assumed: ${d.what}.`);
  for (const a of plan.ambiguities) plan.warnings.push(`Assumed: ${a}.`);
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
