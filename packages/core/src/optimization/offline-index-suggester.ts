import { hasLeadingIndex } from './index-candidate';
import type { IndexSuggester, SuggestedIndex } from './index-suggester';
import { queryShape } from './query-shape';
import { parseTree } from '../pg/index';

/**
 * The offline suggester: pattern rules over the query text and the schema, with no model.
 * Per table it proposes (equality columns, first range column, ORDER BY columns), and an index
 * on each join column that has none; the validator keeps only those the planner would use.
 */
export class OfflineIndexSuggester implements IndexSuggester {
  readonly name = 'offline-patterns';

  async suggest(input: Parameters<IndexSuggester['suggest']>[0]): Promise<SuggestedIndex[]> {
    const parsed = await parseTree(input.sql);
    const terms = queryShape(parsed.stmts[0]!.stmt, input.tables);
    const out: SuggestedIndex[] = [];
    for (const table of new Set(terms.map((t) => t.table))) {
      const mine = terms.filter((t) => t.table === table);
      const cols: string[] = [];
      const add = (c: string): void => {
        if (!cols.some((x) => x.replace(/ DESC$/, '') === c.replace(/ DESC$/, ''))) cols.push(c);
      };
      mine.filter((t) => t.kind === 'eq').forEach((t) => add(t.column));
      const range = mine.find((t) => t.kind === 'range');
      const order = mine.filter((t) => t.kind === 'order');
      if (range && !order.length) add(range.column);
      order.forEach((t) => add(`${t.column}${t.descending ? ' DESC' : ''}`));
      const name = table.schema === 'public' ? table.name : `${table.schema}.${table.name}`;
      if (cols.length) {
        out.push({
          table: name,
          columns: cols,
          where: null,
          reason: `The query filters ${name} on ${cols.join(', ')} (equality first, then range, then ORDER BY).`,
        });
      }
      for (const j of mine.filter((t) => t.kind === 'join' && !t.isExpression)) {
        if (!hasLeadingIndex(table, [j.column]))
          out.push({ table: name, columns: [j.column], where: null, reason: `The query joins on ${name}.${j.column}, which has no index.` });
      }
    }
    return out;
  }
}
