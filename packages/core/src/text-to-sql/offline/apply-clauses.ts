import { type ColumnMention, findMentions } from './mentions';
import type { Plan } from './plan';
import type { QuestionClauses } from './question-clauses';
import { columnRef, type IndexedColumn, type IndexedTable, keyColumn, labelColumn } from './schema-index';
import { STOP_WORDS, type Word } from './words';

/** Words an output item may carry besides the column it names ("its", "each"). */
const ITEM_STOP = new Set(['its', 'their', 'his', 'her', 'each', 'every', 'both', 'also', 's', 'value', 'values']);

const AGGREGATE_ITEM = /^(count|number|total|sum|average|avg|mean|minimum|maximum|min|max|rank|lowest|highest|cheapest|dearest)$/;

/** Only the words in `keep` can match a table or column. */
const only = (words: readonly Word[], keep: (i: number) => boolean): Word[] => words.map((w) => (keep(w.index) ? w : { ...w, stem: '\u0001' }));

function pick(plan: Plan, cms: readonly ColumnMention[], tableHint?: IndexedTable): ColumnMention | undefined {
  return (
    (tableHint ? cms.find((c) => c.table === tableHint) : undefined) ??
    cms.find((c) => c.table === plan.main) ??
    cms.find((c) => plan.joined().includes(c.table)) ??
    cms[0]
  );
}

const phrase = (words: readonly Word[], a: number, b: number): string =>
  words
    .slice(a, b)
    .map((w) => w.text)
    .join(' ');

const isStar = (plan: Plan): boolean => plan.select[0] === `${plan.main.alias}.*` && plan.select.slice(1).every((x) => / AS /.test(x));

const ARITHMETIC: Record<string, string> = { divided: '/', over: '/', times: '*', multiplied: '*', minus: '-', plus: '+' };
const expressionName = (e: string): string =>
  e
    .replace(/[a-z0-9_]+\./g, '')
    .replace(/"/g, '')
    .replace(/ \/ /g, '_per_')
    .replace(/ \* /g, '_times_')
    .replace(/ - /g, '_minus_')
    .replace(/ \+ /g, '_plus_');

/**
 * Applies what the clauses ask of the result's shape: the output columns named ("Return the
 * title and the price"), the ordering ("sorted by cost"), "the first 10", "without duplicates".
 * Words of an output item that names nothing are taken out of `used`, so they count against
 * confidence like any word not understood.
 */
export function applyClauses(plan: Plan, clauses: QuestionClauses, words: readonly Word[], questionColumns: readonly ColumnMention[], used: Set<number>): void {
  const inItem = (i: number): boolean => clauses.outputs.some(([a, b]) => i >= a && i < b);
  const found = findMentions(only(words, inItem), plan.tables);
  const hasAggregate = plan.select.some((s) => s.includes('('));
  const columns: Array<{ t: IndexedTable; c: IndexedColumn }> = [];
  const expressions: string[] = [];
  let exact = true;
  for (const [n, [a, b]] of clauses.outputs.entries()) {
    // "the line total, calculated as quantity times unit price": the next item defines this one.
    const next = clauses.outputs[n + 1];
    const definedNext =
      next !== undefined && /^(calculated|computed|defined|given|worked)$/.test(words[next[0]]?.lower ?? '') && words[next[0] + 1]?.lower === 'as';
    const cms = found.columns.filter((c) => c.start >= a && c.end <= b);
    const tms = found.tables.filter((t) => t.start >= a && t.end <= b);
    const aggregate = words.slice(a, b).some((w) => AGGREGATE_ITEM.test(w.lower));
    const names = words.slice(a, b).some((w) => /^(id|ids|key|identifier)$/.test(w.lower));
    let ok = false;
    // "revenue divided by distance", "quantity times unit price": arithmetic between two columns.
    const op = words.slice(a, b).find((w) => ARITHMETIC[w.lower] !== undefined);
    const operands = op ? [cms.filter((c) => c.end <= op.index).at(-1), cms.find((c) => c.start > op.index)] : [];
    if (op && operands[0] && operands[1] && plan.join(operands[0].table) && plan.join(operands[1].table)) {
      const [x, y] = operands as [ColumnMention, ColumnMention];
      expressions.push(`${columnRef(x.table, x.column)} ${ARITHMETIC[op.lower]} ${columnRef(y.table, y.column)}`);
      ok = true;
    } else if (aggregate) ok = hasAggregate;
    else if (names && !tms[0] && cms.length === 0) {
      // "the id": the main table's key.
      const key = keyColumn(plan.main);
      if (key) columns.push({ t: plan.main, c: key });
      ok = key !== undefined;
    } else if (names && tms[0]) {
      // "the loan id", "the book id" of a loan: the key, or the main table's foreign key to that table.
      const t = tms[0].table;
      const fk =
        t === plan.main
          ? undefined
          : plan.main.table.foreign_keys.find((f) => f.referenced_schema === t.table.schema && f.referenced_table === t.table.name && f.columns.length === 1);
      const fkColumn = fk ? plan.main.columns.find((c) => c.column.name === fk.columns[0]) : undefined;
      const key = keyColumn(t);
      if (fkColumn) columns.push({ t: plan.main, c: fkColumn });
      else if (key) columns.push({ t, c: key });
      ok = fkColumn !== undefined || key !== undefined;
    } else if (cms.length > 0) {
      const c = pick(plan, cms, tms[0]?.table);
      if (c) {
        columns.push({ t: c.table, c: c.column });
        ok = true;
        // "the first name" read as `authors.name`: a word of the item that named nothing was not read.
        const inMention = (i: number): boolean => [...cms, ...tms].some((m) => i >= m.start && i < m.end);
        // ("the title of the book borrowed": a participle after the last name is how, not what.)
        const lastMention = Math.max(...[...cms, ...tms].map((m) => m.end));
        const trailingParticiple = (i: number): boolean =>
          i === b - 1 && i === lastMention && /(ed|used|sold|made|held|taken|given|written|bought|paid)$/.test(words[i]!.lower);
        for (let i = a; i < b; i++) {
          const w = words[i]!;
          if (
            w.kind === 'word' &&
            !definedNext &&
            !inMention(i) &&
            !trailingParticiple(i) &&
            !STOP_WORDS.has(w.lower) &&
            !STOP_WORDS.has(w.stem) &&
            !ITEM_STOP.has(w.lower)
          )
            used.delete(i);
        }
        // Several tables hold the column and neither the item nor the query says which.
        const rivals = new Set(cms.filter((m) => m.start === c.start).map((m) => m.table));
        if (!tms[0] && rivals.size > 1 && c.table !== plan.main && !plan.named.has(c.table)) {
          plan.ambiguous(
            `the output "${phrase(words, a, b)}" names a column of ${[...rivals].map((t) => t.table.name).join(' and of ')}; ${c.table.table.name} was taken`,
          );
        }
      }
    } else if (tms[0]) {
      const label = labelColumn(tms[0].table);
      if (label) {
        columns.push({ t: tms[0].table, c: label });
        ok = true;
        exact = false;
      }
    }
    if (!ok) {
      exact = false;
      // Named as a whole (its words may all be stop words or columns a `*` happens to show: "the
      // number of days between the due date and the return date"), not word by word.
      if (!definedNext) plan.ambiguous(`the output "${phrase(words, a, b)}" was not understood; the SQL may not give it`);
    }
  }

  // A plain list (`t.*`) with named output columns shows those columns; tables they live in are joined.
  for (const e of expressions) plan.select.push(`${e} AS ${expressionName(e)}`);
  // Only when every item was read as a column: a half-understood list keeps all the main table's
  // columns and adds the others', so nothing asked for is dropped.
  if (isStar(plan) && columns.length > 0 && plan.groupBy.length === 0) {
    const refs: string[] = [];
    for (const { t, c } of columns) if (plan.join(t)) refs.push(columnRef(t, c));
    if (!exact) {
      plan.select.push(...new Set(refs.filter((r) => !r.startsWith(`${plan.main.alias}.`))));
    } else if (refs.length > 0) {
      plan.select.splice(0, 1, ...new Set(refs));
      plan.notes.push(`Output columns as asked: ${refs.join(', ')}.`);
    }
  }

  if (clauses.distinct && plan.groupBy.length === 0 && !hasAggregate) {
    // "the first 10 surnames of members, without duplicates": the column the question names.
    if (isStar(plan)) {
      const named = questionColumns.find((c) => c.table === plan.main && c.column.kind !== 'number') ?? questionColumns.find((c) => c.table === plan.main);
      if (named) plan.select.splice(0, plan.select.length, columnRef(plan.main, named.column));
    }
    if (!isStar(plan)) plan.distinct = true;
  }

  if (clauses.order) {
    const [a, b] = clauses.order.range;
    const om = findMentions(
      only(words, (i) => i >= a && i < b),
      plan.tables,
    );
    const aggregate = words.slice(a, b).some((w) => AGGREGATE_ITEM.test(w.lower));
    const c = pick(plan, om.columns);
    const dir = clauses.order.desc ? 'DESC' : 'ASC';
    if (aggregate && plan.orderBy.length > 0) {
      // "sorted by the number of loans": the aggregate already ranks the groups; only the direction is taken.
      plan.orderBy[0] = plan.orderBy[0]!.replace(/ (ASC|DESC)$/, '') + ` ${dir}`;
    } else if (c && plan.join(c.table)) {
      const ref = columnRef(c.table, c.column);
      const selected = plan.select.includes(ref) || isStar(plan) || plan.select.includes(`${c.table.alias}.*`);
      if (!plan.distinct || selected) {
        if (plan.groupBy.length === 0 || plan.groupBy.includes(ref)) plan.orderBy.splice(0, plan.orderBy.length, `${ref} ${dir}`);
      }
    } else if (!aggregate) {
      for (let i = a; i < b; i++) if (words[i]!.kind === 'word' && !STOP_WORDS.has(words[i]!.lower)) used.delete(i);
      // Unless it names an output a later step makes ("ordered by month" and `... AS month`).
      const named = words.slice(a, b).map((w) => w.lower);
      plan.finalChecks.push(() =>
        plan.orderBy.some((o) => named.includes(o.replace(/ (ASC|DESC)$/, ''))) ? undefined : `the ordering "${phrase(words, a, b)}" was not understood`,
      );
    }
  }

  if (clauses.limit !== undefined && plan.limit === undefined) {
    plan.limit = clauses.limit;
    if (plan.orderBy.length === 0) {
      const first = plan.select[0];
      if (first && !first.endsWith('.*') && !first.includes('(')) plan.orderBy.push(first);
    }
  }
}
