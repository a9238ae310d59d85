import { describe, expect, it } from 'vitest';
import { aggregateForRow, ambiguousColumns } from './ambiguity';
import { findMentions } from './mentions';
import { Plan } from './plan';
import { shopTables } from './shapes-filters.fixture';
import { questionWords } from './words';

// sellers(seller_id, shop_name, country) <- products(product_id, seller_id, name, category, unit_price),
// with a second table holding `country`: buyers of the sellers' products.
const guesses = (q: string, selectCountryOf: 'sellers' | 'products'): string[] => {
  const tables = shopTables();
  const [sellers, products] = [tables.find((t) => t.table.name === 'sellers')!, tables.find((t) => t.table.name === 'products')!];
  // products has no country column; give it one so that "country" names a column of both tables.
  products.columns.push({ ...sellers.columns.find((c) => c.column.name === 'country')! });
  const words = questionWords(q);
  const m = findMentions(words, tables);
  const plan = new Plan(products, tables);
  plan.join(sellers);
  const owner = selectCountryOf === 'sellers' ? sellers : products;
  return ambiguousColumns(plan, m.columns, m.tables, words, `SELECT ${owner.alias}.country FROM x`);
};

describe('a column named in two joined tables', () => {
  it('is a guess when no table is named beside the column', () => {
    expect(guesses('products and their sellers, with the country', 'products').join(' ')).toMatch(/"country" names a column of .* was taken/);
  });

  it('is no guess when the table is named beside it: "the country of the seller", "the seller\'s country"', () => {
    expect(guesses('products with the country of the seller', 'sellers')).toEqual([]);
    expect(guesses("products with the seller's country", 'sellers')).toEqual([]);
  });

  it('is a guess when the column taken is of a table the question does not name and another table holds it too', () => {
    const tables = shopTables();
    const [sellers, products] = [tables.find((t) => t.table.name === 'sellers')!, tables.find((t) => t.table.name === 'products')!];
    // buyers(country), not part of the query: "country" could as well be the buyers'.
    const buyers = { ...sellers, table: { ...sellers.table, name: 'buyers' }, alias: 'b' };
    const all = [...tables, buyers];
    const words = questionWords('the products with their country');
    const m = findMentions(words, all);
    const plan = new Plan(products, all);
    plan.join(sellers);
    plan.named = new Set([products]);
    expect(ambiguousColumns(plan, m.columns, m.tables, words, `SELECT ${sellers.alias}.country`).join(' ')).toMatch(
      /"country" names a column of (sellers and of buyers|buyers and of sellers)/,
    );
    // Had the question named the sellers (plan.named), their column is the one meant.
    plan.named = new Set([products, sellers]);
    expect(ambiguousColumns(plan, m.columns, m.tables, words, `SELECT ${sellers.alias}.country`)).toEqual([]);
  });

  it('calls a max() for "the most recent <table>" a guess between the value and the row', () => {
    const tables = shopTables();
    const products = tables.find((t) => t.table.name === 'products')!;
    const ask = (q: string): string | undefined => {
      const words = questionWords(q);
      const plan = new Plan(products, tables);
      plan.select.push('max(p.unit_price)');
      return aggregateForRow(plan, findMentions(words, tables).tables, words);
    };
    expect(ask('the most expensive product')).toMatch(/read as the largest value, not as the products row/);
    expect(ask('the highest unit price of the products')).toBeUndefined();
    expect(ask('the unit price of the most expensive product')).toBeUndefined();
  });
});
