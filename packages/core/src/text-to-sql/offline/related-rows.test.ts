import { describe, expect, it } from 'vitest';
import type { ColumnInfo, TableInfo } from '../../introspection/schema-snapshot';
import { generateOffline } from './offline-generator';

const col = (name: string, udt: string, ordinal: number): ColumnInfo => ({
  name,
  ordinal,
  data_type: udt,
  udt_name: udt,
  nullable: true,
  default: null,
  identity: null,
  generated: null,
  comment: null,
});

const employees: TableInfo = {
  schema: 'staff',
  name: 'employees',
  kind: 'table',
  columns: [col('employee_id', 'int4', 1), col('first_name', 'text', 2), col('last_name', 'text', 3), col('manager_id', 'int4', 4), col('hired_on', 'date', 5)],
  primary_key: ['employee_id'],
  constraints: [],
  foreign_keys: [
    {
      name: 'employees_manager_fk',
      columns: ['manager_id'],
      referenced_schema: 'staff',
      referenced_table: 'employees',
      referenced_columns: ['employee_id'],
      on_delete: 'no_action',
      on_update: 'no_action',
      validated: true,
      definition: '',
    },
  ],
  indexes: [],
  row_estimate: 10,
  pages: 1,
  total_bytes: 8192,
  comment: null,
  partition_of: null,
  partition_bound: null,
  partition_key: null,
  view_definition: null,
};

const ask = (question: string) => generateOffline({ question, tables: [{ table: employees, similarity: 1 }], enums: [], documents: [], attempts: [] });

describe('rows related to rows', () => {
  it('joins a table to itself through its own foreign key ("each employee with their manager"), in a non-public schema', () => {
    const out = ask('List each employee with their manager.');
    expect(out.sql).toMatch(
      /FROM (?:"staff"|staff)\.(?:"employees"|employees) e\s+JOIN (?:"staff"|staff)\.(?:"employees"|employees) e_p ON e_p\."employee_id" = e\."manager_id"/,
    );
    expect(out.sql).toMatch(/e_p\."first_name"/);
  });

  it('does not join to itself when the key is tested for NULL ("with no manager")', () => {
    expect(ask('List the employees who have no manager.').sql).not.toMatch(/e_p/);
  });

  it('groups by month when asked "for each month"', () => {
    const out = ask('Produce the number of employees hired in each month of 2020. Return the month and the count, ordered by month.');
    expect(out.sql).toMatch(/extract\(month FROM e\.hired_on\) AS month/);
    expect(out.sql).toMatch(/'2020-01-01'/);
    expect(out.sql).toMatch(/GROUP BY extract\(month FROM e\.hired_on\)/);
  });
});
