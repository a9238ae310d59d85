import { describe, expect, it } from 'vitest';
import type { SandboxEndState } from '../types';
import { compareEndStates } from './prove-safe-plan';

/** An end state with table t (columns in the order given) and table u (a, b). */
function endState(tColumns: string[], uColumns = ['a', 'b']): SandboxEndState {
  return {
    schema: [
      ['table public.t', ''],
      ...tColumns.map((c, i): [string, string] => [`column public.t.${c}`, `#${i + 1} ${c === 'id' ? 'bigint not null' : 'text'}`]),
      ['table public.u', ''],
      ...uColumns.map((c, i): [string, string] => [`column public.u.${c}`, `#${i + 1} integer`]),
      ['index public.t_pkey', 'CREATE UNIQUE INDEX t_pkey ON public.t USING btree (id)'],
    ],
    rows: { 'public.t': 'h1', 'public.u': 'h2' },
  };
}

describe('the proof of a safe plan', () => {
  it('tolerates a changed column order only in the tables the plan swaps a column of, and says what changed', () => {
    const original = endState(['id', 'name', 'note']);
    const plan = endState(['name', 'note', 'id']);
    expect(compareEndStates(original, plan).equivalent).toBe(false);
    expect(compareEndStates(original, plan).detail).toMatch(/column public\.t\.id differs \(was "#1 bigint not null", now "#3 bigint not null"\)/);
    const allowed = compareEndStates(original, plan, { reordered: ['public.t'] });
    expect(allowed).toEqual({
      equivalent: true,
      detail: expect.stringMatching(
        /same schema \(\d+ objects compared, column positions aside\) and same rows \(2 tables\); the column order changed, as the expand\/contract swap does \(the swapped column becomes the last\): public\.t: \(name, note, id\), was \(id, name, note\)$/,
      ),
    });
    // Nothing else of the reordered table's columns is let through.
    const retyped = endState(['name', 'note', 'id']);
    retyped.schema = retyped.schema.map(([k, v]) => [k, k === 'column public.t.id' ? '#3 integer not null' : v]);
    expect(compareEndStates(original, retyped, { reordered: ['public.t'] }).detail).toMatch(
      /column public\.t\.id differs \(was "bigint not null", now "integer not null"\)/,
    );
  });

  it('still compares the order of the columns of every other table', () => {
    const original = endState(['id', 'name'], ['a', 'b']);
    const plan = endState(['name', 'id'], ['b', 'a']);
    const proof = compareEndStates(original, plan, { reordered: ['public.t'] });
    expect(proof.equivalent).toBe(false);
    expect(proof.detail).toMatch(/column public\.u\.a differs/);
    expect(proof.detail).not.toMatch(/public\.t\./);
  });

  it('says nothing of column order when the order did not change', () => {
    const proof = compareEndStates(endState(['id', 'name']), endState(['id', 'name']), { reordered: ['public.t'] });
    expect(proof.equivalent).toBe(true);
    expect(proof.detail).not.toMatch(/column order|positions/);
  });
});
