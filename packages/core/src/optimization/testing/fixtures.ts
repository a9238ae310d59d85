import type { IndexRuleContext } from '../index-rules/rule-context';
import type { CatalogTable, LiveCatalog } from '../live-catalog';
import { flattenPlan, type RawPlanNode } from '../raw-plan';

/** A catalog table for unit tests: `columns` as name -> NOT NULL. */
export function table(name: string, rows: number, columns: Record<string, boolean>, extra: Partial<CatalogTable> = {}): CatalogTable {
  return {
    schema: 'public',
    name,
    rowEstimate: rows,
    columns: new Map(
      Object.entries(columns).map(([c, notNull]) => [
        c,
        {
          name: c,
          notNull,
          dataType: c.endsWith('_at') ? 'timestamp without time zone' : c === 'id' || c.endsWith('_id') || c === 'qty' ? 'integer' : 'text',
          avgWidth: 8,
        },
      ]),
    ),
    indexes: [],
    foreignKeys: [],
    writes: { inserts: rows, updates: 0, deletes: 0, seqScans: 1, idxScans: 0 },
    ...extra,
  };
}

export const catalogOf = (...tables: CatalogTable[]): LiveCatalog => new Map(tables.map((t) => [`${t.schema}.${t.name}`, t]));

/** A plan node with defaults for the fields rules do not read. */
export function node(type: string, fields: Partial<RawPlanNode> = {}, ...children: RawPlanNode[]): RawPlanNode {
  return {
    'Node Type': type,
    'Startup Cost': 0,
    'Total Cost': 100,
    'Plan Rows': 1,
    'Plan Width': 8,
    ...fields,
    ...(children.length ? { Plans: children } : {}),
  };
}

export function ruleContext(root: RawPlanNode, catalog: LiveCatalog, analyzed = false): IndexRuleContext {
  return { root, visits: flattenPlan(root), catalog, totalCost: root['Total Cost'], analyzed };
}
