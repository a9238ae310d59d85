import { describe, expect, it } from 'vitest';
import type { ColumnInfo, TableInfo } from '../../introspection/schema-snapshot';
import { testColumn, testTable } from './test-tables.fixture';
import { findMentions } from './mentions';
import { findNullFilters } from './null-filters';
import { indexSchema } from './schema-index';
import { relatedStems } from './related-stems';
import { questionWords } from './words';

const col = (name: string, udt: string, nullable = true): ColumnInfo => testColumn(name, { data_type: udt, udt_name: udt, nullable });
const table = (name: string, columns: ColumnInfo[]): TableInfo => testTable(name, columns);
const tables = indexSchema(
  [
    table('rental', [col('id', 'int4', false), col('return_date', 'timestamptz'), col('rental_date', 'timestamptz', false)]),
    table('orders', [col('id', 'int4', false), col('shipped_date', 'date'), col('is_gift', 'bool')]),
    table('customer', [col('id', 'int4', false), col('fax', 'varchar'), col('company', 'varchar')]),
  ],
  [],
);

const filters = (question: string) => {
  const words = questionWords(question);
  return findNullFilters(words, tables, findMentions(words, tables).columns).map(
    (f) => `${f.table.table.name}.${f.column.column.name} IS ${f.isNull ? '' : 'NOT '}NULL`,
  );
};

describe('NULL filters', () => {
  it('reads negated verbs as the column they name being NULL', () => {
    expect(filters('How many rentals have not been returned?')).toEqual(['rental.return_date IS NULL']);
    expect(filters('Orders not yet shipped')).toEqual(['orders.shipped_date IS NULL']);
    expect(filters('How many orders are unshipped?')).toEqual(['orders.shipped_date IS NULL']);
  });

  it('reads "no X" and "have a X"', () => {
    expect(filters('Customers with no company')).toEqual(['customer.company IS NULL']);
    expect(filters('How many customers have a fax?')).toEqual(['customer.fax IS NOT NULL']);
  });

  it('leaves NOT NULL columns, booleans and unrelated words alone', () => {
    expect(filters('Rentals not rented in 2024')).toEqual([]);
    expect(filters('Orders that are not gifts')).toEqual([]);
    expect(filters('How many customers are there?')).toEqual([]);
  });

  it('relates stems the stemmer leaves apart, and not short unrelated ones', () => {
    expect(relatedStems('hir', 'hire')).toBe(true);
    expect(relatedStems('populou', 'population')).toBe(true);
    expect(relatedStems('ship', 'shipp')).toBe(true);
    expect(relatedStems('ab', 'abc')).toBe(false);
    expect(relatedStems('order', 'other')).toBe(false);
  });
});
