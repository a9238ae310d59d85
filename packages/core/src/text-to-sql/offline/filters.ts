/**
 * The WHERE clause of the offline generator: sampled values, enum and boolean words, NULL tests,
 * LIKE patterns, capitalised names, rows named by key, date ranges and numeric comparisons (with
 * HAVING when a comparison counts rows). Split from offline-generator.ts so each concept can be
 * read on its own; behaviour is unchanged.
 */
import type { ColumnValueSample } from '../../introspection/schema-snapshot';
import { quoteLiteral } from '../../pg/quote';
import { type ValueMatch } from '../value-matches';
import { findComparisons } from './comparisons';
import { findDateRange } from './date-ranges';
import { joinPath } from './join-paths';
import { Plan } from './plan';
import { type TextPattern } from './text-patterns';
import { type ColumnMention, type TableMention } from './mentions';
import { type RowReference } from './row-references';
import { findNullFilters } from './null-filters';
import { distinctiveStems, relatedStems } from './related-stems';
import { columnRef, flagTest, type IndexedColumn, type IndexedTable, keyColumn, labelColumn } from './schema-index';
import { STOP_WORDS, type Word } from './words';
import { bestColumn, measureColumn } from './shapes';

export const sqlString = quoteLiteral;

/**
 * Filters for the values the question names: each goes to the column holding it. When several
 * columns hold it, the one the question names ("billing country"), else one of the main table,
 * else the nearest by joins is taken, and the doubt is recorded.
 */
export function applyValueMatches(
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
 * "composed by X", "directed by X", "located in X": the verb just before a value names a text
 * column of the main table (composer), matched by stem.
 */
export function verbColumn(plan: Plan, words: readonly Word[], at: number): ColumnMention | undefined {
  const link = words[at - 1];
  const verb = words[at - 2];
  if (!link || !verb || !['by', 'in', 'from', 'at'].includes(link.lower) || verb.kind !== 'word' || STOP_WORDS.has(verb.lower)) return undefined;
  const column = plan.main.columns.find((c) => c.kind === 'text' && distinctiveStems(c.stems).some((s) => relatedStems(s, verb.stem)));
  return column ? { table: plan.main, column, start: at - 2, end: at - 1 } : undefined;
}

export function applyNullFilters(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], used: Set<number>): void {
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

export function applyEnumAndBooleanFilters(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], used: Set<number>): void {
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
export function applyRowReferences(plan: Plan, refs: readonly RowReference[], used: Set<number>, words: readonly Word[] = []): void {
  for (const r of refs) {
    const key = keyColumn(r.table);
    if (!key) continue;
    // "the member recommended by member 3", "drivers managed by driver 2": a row of the main table
    // named after "by"/"to" is the other end of its foreign key to itself, not the row itself.
    const selfFk = plan.main.table.foreign_keys.filter(
      (f) => f.referenced_schema === plan.main.table.schema && f.referenced_table === plan.main.table.name && f.columns.length === 1,
    );
    const relation = r.table === plan.main && /^(by|to|under)$/.test(words[r.start - 1]?.lower ?? '');
    if (relation && selfFk.length > 1)
      plan.ambiguous(
        `${r.table.table.name} ${r.values.join(', ')} was compared with ${selfFk[0]!.columns[0]}; ${selfFk[1]!.columns[0]} refers to the same table`,
      );
    const fk =
      r.table === plan.main
        ? relation
          ? selfFk[0]
          : undefined
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
export function applyTextPatterns(plan: Plan, patterns: readonly TextPattern[], cms: readonly ColumnMention[], used: Set<number>): void {
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

/** `col ILIKE 'value'` with LIKE's wildcards escaped: equality without regard to case. */
export const caseInsensitiveEquals = (ref: string, value: string): string => `${ref} ILIKE ${sqlString(value.replace(/[\\%_]/g, (c) => `\\${c}`))}`;

/**
 * Quoted strings and capitalised names the sampled values do not know: "named 'Alice'", "from
 * Berlin", "by Jimi Hendrix" (consecutive capitalised words are one name). The column named just
 * before says where it belongs; else the label of a table named next to it; else a guess on the
 * main table, which costs confidence.
 */
export function applyValueFilters(plan: Plan, words: readonly Word[], cms: readonly ColumnMention[], tms: readonly TableMention[], used: Set<number>): void {
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
    // Put on a column the question did not name (a table's label, a guessed column of the main
    // table): the name may as well belong to another column ("sellers from France" and shop_name).
    if (!col) plan.ambiguous(`"${phrase}" was taken for a value of ${target.t.table.name}.${target.c.column.name}, a column the question did not name`);
    for (let k = i; k < end; k++) used.add(k);
    i = end - 1;
  }
}

export function applyDateRange(
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

export function applyComparisons(
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
