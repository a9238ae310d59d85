import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../introspection/schema-snapshot';
import { buildUserPrompt } from './prompt';

const language: TableInfo = {
  schema: 'public',
  name: 'language',
  kind: 'table',
  primary_key: ['id'],
  constraints: [],
  foreign_keys: [],
  indexes: [],
  columns: [{ name: 'name', ordinal: 1, data_type: 'text', udt_name: 'text', nullable: false, default: null, identity: null, generated: null, comment: null }],
  row_estimate: 3,
  pages: 1,
  total_bytes: 1,
  comment: null,
  partition_of: null,
  partition_bound: null,
  partition_key: null,
  view_definition: null,
};

describe('language-model prompt', () => {
  it('lists the sampled values of a context table, the ones the question names first', () => {
    const values = Array.from({ length: 40 }, (_, i) => `Lang ${String(i).padStart(2, '0')}`).concat("Italian 'classic'");
    const prompt = buildUserPrompt({
      question: "How many films are in Italian 'classic'?",
      tables: [{ table: language, similarity: 0.5 }],
      enums: [],
      values: [{ schema: 'public', table: 'language', column: 'name', values }],
      documents: [],
      attempts: [],
    });
    const line = prompt.split('\n').find((l) => l.trim().startsWith('VALUES name:'));
    expect(line).toMatch(/^ {2}VALUES name: 'Italian ''classic''', 'Lang 00', /);
    expect(line).toMatch(/\(and 16 more\)$/);
  });
});
