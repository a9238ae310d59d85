import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../../introspection/schema-snapshot';
import { testColumn, testTable } from './test-tables.fixture';
import { joinPath, sameLengthAlternative } from './join-paths';
import { Plan } from './plan';
import { type IndexedTable, indexSchema } from './schema-index';

const table = (name: string, key: string, fks: Array<[string, string, string]> = []): TableInfo =>
  testTable(name, [testColumn(key), ...fks.map(([c]) => testColumn(c))], {
    primary_key: [key],
    foreign_keys: fks.map(([column, to, toKey]) => ({
      name: `${name}_${column}_fk`,
      columns: [column],
      referenced_schema: 'public',
      referenced_table: to,
      referenced_columns: [toKey],
      on_delete: 'no_action',
      on_update: 'no_action',
      validated: true,
      definition: '',
    })),
  });

// A trip reaches its depot through its vehicle and through its driver: two paths of two steps.
const fleet = (): IndexedTable[] =>
  indexSchema(
    [
      table('depots', 'depot_id'),
      table('vehicles', 'vehicle_id', [['depot_id', 'depots', 'depot_id']]),
      table('drivers', 'driver_id', [['depot_id', 'depots', 'depot_id']]),
      table('trips', 'trip_id', [
        ['vehicle_id', 'vehicles', 'vehicle_id'],
        ['driver_id', 'drivers', 'driver_id'],
      ]),
    ],
    [],
  );
const byName = (tables: IndexedTable[], name: string): IndexedTable => tables.find((t) => t.table.name === name)!;

describe('join paths of the same length', () => {
  it('finds the other path through other tables', () => {
    const t = fleet();
    const chosen = joinPath(t, byName(t, 'trips'), byName(t, 'depots'))!;
    const other = sameLengthAlternative(t, byName(t, 'trips'), byName(t, 'depots'), chosen)!;
    expect(chosen.map((s) => s.to.table.name)).toEqual(['vehicles', 'depots']);
    expect(other.map((s) => s.to.table.name)).toEqual(['drivers', 'depots']);
    expect(sameLengthAlternative(t, byName(t, 'vehicles'), byName(t, 'depots'), joinPath(t, byName(t, 'vehicles'), byName(t, 'depots'))!)).toBeNull();
  });

  it('does not count a key the other way round (a capital city) as an equal', () => {
    const t = indexSchema([table('country', 'code', [['capital', 'city', 'id']]), table('city', 'id', [['country_code', 'country', 'code']])], []);
    const chosen = joinPath(t, byName(t, 'city'), byName(t, 'country'))!;
    expect(sameLengthAlternative(t, byName(t, 'city'), byName(t, 'country'), chosen)).toBeNull();
  });

  it('counts two keys from one table to another (origin and destination) as equals', () => {
    const t = indexSchema(
      [
        table('airports', 'airport_id'),
        table('flights', 'flight_id', [
          ['origin_id', 'airports', 'airport_id'],
          ['destination_id', 'airports', 'airport_id'],
        ]),
      ],
      [],
    );
    const chosen = joinPath(t, byName(t, 'flights'), byName(t, 'airports'))!;
    expect(sameLengthAlternative(t, byName(t, 'flights'), byName(t, 'airports'), chosen)?.[0]?.on).toEqual([['destination_id', 'airport_id']]);
  });

  it('takes the path through the table the question names, and is ambiguous when none is named', () => {
    const t = fleet();
    const guessed = new Plan(byName(t, 'trips'), t);
    guessed.join(byName(t, 'depots'));
    expect(guessed.ambiguities.join(' ')).toMatch(/trips was joined to depots through vehicles; through drivers is as short/);
    const named = new Plan(byName(t, 'trips'), t);
    named.named = new Set([byName(t, 'drivers'), byName(t, 'depots')]);
    named.join(byName(t, 'depots'));
    expect(named.ambiguities).toEqual([]);
    expect(named.joins.map((s) => s.to.table.name)).toEqual(['drivers', 'depots']);
  });
});
