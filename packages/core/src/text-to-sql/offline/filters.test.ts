import { describe, expect, it } from 'vitest';
import { applyComparisons, applyRowReferences, applyTextPatterns } from './filters';
import { findComparisons } from './comparisons';
import { findMentions } from './mentions';
import { Plan } from './plan';
import { findRowReferences } from './row-references';
import { shopTables } from './shapes-filters.fixture';
import { findTextPatterns } from './text-patterns';
import { questionWords } from './words';

const setup = (q: string) => {
  const tables = shopTables();
  const words = questionWords(q);
  const m = findMentions(words, tables);
  const plan = new Plan(
    tables.find((t) => t.table.name === 'products')!,
    tables,
  );
  return { tables, words, m, plan, used: new Set(m.used) };
};

describe('filters', () => {
  it('puts a LIKE pattern on the column named before the verb', () => {
    const { words, m, plan, used } = setup("products whose category starts with 'Cer'");
    applyTextPatterns(plan, findTextPatterns(words), m.columns, used);
    expect(plan.where).toEqual([`p.category LIKE 'Cer%'`]);
  });

  it("compares a row named by key through the main table's foreign key, without a join", () => {
    const { words, m, plan, used } = setup('products of seller 6');
    applyRowReferences(
      plan,
      findRowReferences(words, m.tables, () => true),
      used,
    );
    expect(plan.where).toEqual(['p.seller_id = 6']);
    expect(plan.joins).toEqual([]);
  });

  it('puts both ends of a range on the column named before it', () => {
    const { words, m, plan, used } = setup('products with unit price between 50 and 60');
    const lower = words.map((w) => w.lower);
    applyComparisons(
      plan,
      findComparisons(lower, (i) => words[i]?.kind === 'number'),
      words,
      m,
      used,
    );
    expect(plan.where).toEqual(['p.unit_price >= 50', 'p.unit_price <= 60']);
  });
});
