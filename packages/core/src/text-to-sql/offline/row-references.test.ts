import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../../introspection/schema-snapshot';
import { applyRowReferences } from './filters';
import { findMentions } from './mentions';
import { Plan } from './plan';
import { findRowReferences } from './row-references';
import { indexSchema } from './schema-index';
import { questionWords } from './words';
import { testColumn, testTable } from './test-tables.fixture';

const table = (name: string, key: string, udt = 'int4'): TableInfo => testTable(name, [testColumn(key, { udt_name: udt })], { primary_key: [key] });

const refs = (q: string, tables: TableInfo[]) => {
  const words = questionWords(q);
  const indexed = indexSchema(tables, []);
  return findRowReferences(words, findMentions(words, indexed).tables, () => true).map((r) => `${r.table.table.name}:${r.values.join(',')}`);
};

describe('row references', () => {
  it('reads "customer 100", "ids 2 and 4", "with id 3"', () => {
    const tables = [table('customer', 'customer_id'), table('rental', 'rental_id')];
    expect(refs('How many rentals has customer 100 made?', tables)).toEqual(['customer:100']);
    expect(refs('the rentals with ids 2 and 4', tables)).toEqual(['rental:2,4']);
    expect(refs('the customer with id 3', tables)).toEqual(['customer:3']);
  });

  it('needs a numeric key', () => {
    expect(refs('country 5', [table('country', 'code', 'text')])).toEqual([]);
  });

  it('reads a row of the main table after "by" as the other end of its foreign key to itself', () => {
    const members = table('members', 'member_id');
    members.columns.push({ ...members.columns[0]!, name: 'recommended_by', ordinal: 2 });
    members.foreign_keys.push({
      name: 'members_recommended_by_fk',
      columns: ['recommended_by'],
      referenced_schema: 'public',
      referenced_table: 'members',
      referenced_columns: ['member_id'],
      on_delete: 'no_action',
      on_update: 'no_action',
      validated: true,
      definition: '',
    });
    const where = (q: string): string[] => {
      const words = questionWords(q);
      const indexed = indexSchema([members], []);
      const plan = new Plan(indexed[0]!, indexed);
      applyRowReferences(
        plan,
        findRowReferences(words, findMentions(words, indexed).tables, () => true),
        new Set(),
        words,
      );
      return plan.where;
    };
    expect(where('the members recommended by member 3')).toEqual(['m.recommended_by = 3']);
    expect(where('the member with id 3')).toEqual(['m.member_id = 3']);
  });
});
