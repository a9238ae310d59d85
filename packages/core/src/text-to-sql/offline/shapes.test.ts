import { describe, expect, it } from 'vitest';
import { findMentions } from './mentions';
import { Plan } from './plan';
import { chooseMain, findGroupTarget, measureColumn } from './shapes';
import { shopTables } from './shapes-filters.fixture';
import { questionWords } from './words';

const read = (q: string) => {
  const tables = shopTables();
  const words = questionWords(q);
  const m = findMentions(words, tables);
  const text = ` ${words.map((w) => w.lower).join(' ')} `;
  return { tables, words, m, text };
};

describe('answer shapes', () => {
  it('takes the table named after the question word as the subject', () => {
    const { tables, words, m, text } = read('How many products does each seller list?');
    expect(chooseMain(text, words, m.tables, m.columns, tables)?.table.name).toBe('products');
  });

  it('groups "per seller" by the related table, but not "written by" an agent', () => {
    const q = read('Average unit price per seller');
    const main = q.tables.find((t) => t.table.name === 'products')!;
    expect(findGroupTarget(q.words, q.m.tables, q.m.columns, main, q.tables)?.table.table.name).toBe('sellers');
    const agent = read('Products sold by sellers from Kenya');
    expect(findGroupTarget(agent.words, agent.m.tables, agent.m.columns, main, agent.tables)).toBeUndefined();
  });

  it('finds the measure the question names', () => {
    const q = read('the average unit price of products');
    const plan = new Plan(
      q.tables.find((t) => t.table.name === 'products')!,
      q.tables,
    );
    expect(measureColumn(plan, q.words, q.m.columns, q.text)?.c.column.name).toBe('unit_price');
  });
});
