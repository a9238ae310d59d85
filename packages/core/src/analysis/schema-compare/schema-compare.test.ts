import { describe, expect, it } from 'vitest';
import { compareSchemas, describeDifference } from './schema-compare';

describe('compareSchemas', () => {
  it('names what is missing, left over and defined differently, in words', () => {
    const before = new Map([
      ['function public.f(integer)', 'CREATE OR REPLACE FUNCTION public.f(a integer) RETURNS integer AS $$ SELECT 1 $$'],
      ['column public.t.a', '#1 integer'],
      ['materialized view public.mv', 'SELECT 1'],
    ]);
    const after = new Map([
      ['function public.f(integer)', 'CREATE OR REPLACE FUNCTION public.f(a integer) RETURNS integer AS $$ SELECT 2 $$'],
      ['column public.t.a', '#1 integer'],
      ['index public.t_a_idx', 'CREATE INDEX t_a_idx ON public.t USING btree (a)'],
    ]);
    expect(compareSchemas(before, after).map(describeDifference)).toEqual([
      'function public.f(integer) differs (was "integer AS $$ SELECT 1 $$", now "integer AS $$ SELECT 2 $$")',
      'index public.t_a_idx is left over',
      'materialized view public.mv is missing',
    ]);
    expect(compareSchemas(before, new Map(before))).toEqual([]);
  });
});
