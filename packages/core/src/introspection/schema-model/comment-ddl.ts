import { quoteIdent, quoteLiteral } from '../../pg/quote';
import type { SchemaSnapshot, TableInfo } from '../schema-snapshot';
import { RANK, type DdlNode } from './ddl-statement';
import { label, qname } from './names';

const RELATION_WORD: Record<TableInfo['kind'], string> = {
  table: 'TABLE',
  partitioned_table: 'TABLE',
  view: 'VIEW',
  materialized_view: 'MATERIALIZED VIEW',
  foreign_table: 'FOREIGN TABLE',
};

/** What `COMMENT ON` names for each object id of the snapshot that can carry a comment. */
function commentTargets(s: SchemaSnapshot, relationId: (t: TableInfo) => string): Map<string, string> {
  const m = new Map<string, string>();
  for (const sc of s.model?.schemas ?? []) m.set(sc.id, `SCHEMA ${quoteIdent(sc.name)}`);
  for (const t of s.tables) {
    const name = qname(t.schema, t.name);
    m.set(relationId(t), `${RELATION_WORD[t.kind]} ${name}`);
    for (const c of t.constraints) if (c.id) m.set(c.id, `CONSTRAINT ${quoteIdent(c.name)} ON ${name}`);
    for (const f of t.foreign_keys) if (f.id) m.set(f.id, `CONSTRAINT ${quoteIdent(f.name)} ON ${name}`);
    for (const i of t.indexes) if (i.id) m.set(i.id, `INDEX ${qname(t.schema, i.name)}`);
  }
  for (const q of s.sequences) if (q.id) m.set(q.id, `SEQUENCE ${qname(q.schema, q.name)}`);
  for (const e of s.enums) if (e.id) m.set(e.id, `TYPE ${qname(e.schema, e.name)}`);
  const model = s.model;
  if (!model) return m;
  for (const t of model.types) {
    m.set(t.id, `${t.kind === 'domain' ? 'DOMAIN' : 'TYPE'} ${qname(t.schema, t.name)}`);
    if (t.kind === 'domain') for (const c of t.constraints) m.set(c.id, `CONSTRAINT ${quoteIdent(c.name)} ON DOMAIN ${qname(t.schema, t.name)}`);
  }
  for (const r of model.routines)
    m.set(
      r.id,
      `${r.kind === 'aggregate' ? 'AGGREGATE' : r.kind === 'procedure' ? 'PROCEDURE' : 'FUNCTION'} ${qname(r.schema, r.name)}(${r.identity_arguments})`,
    );
  for (const t of model.triggers) m.set(t.id, `TRIGGER ${quoteIdent(t.name)} ON ${qname(t.table_schema, t.table)}`);
  for (const r of model.rules) m.set(r.id, `RULE ${quoteIdent(r.name)} ON ${qname(r.table_schema, r.table)}`);
  for (const p of model.policies) m.set(p.id, `POLICY ${quoteIdent(p.name)} ON ${qname(p.table_schema, p.table)}`);
  return m;
}

/** COMMENT ON statements, each after the object it comments on. */
export function commentNodes(s: SchemaSnapshot, relationId: (t: TableInfo) => string): DdlNode[] {
  const nodes: DdlNode[] = [];
  const add = (id: string, object: string, target: string, comment: string): void => {
    nodes.push({
      id: `${id}:comment:${nodes.length}`,
      rank: RANK.comment,
      deps: [id],
      statements: [{ object, kind: 'comment', sql: `COMMENT ON ${target} IS ${quoteLiteral(comment)}` }],
    });
  };
  for (const t of s.tables) {
    const id = relationId(t);
    const name = qname(t.schema, t.name);
    if (t.comment !== null) add(id, label(t.schema, t.name), `${RELATION_WORD[t.kind]} ${name}`, t.comment);
    for (const c of t.columns) if (c.comment !== null) add(id, `${label(t.schema, t.name)}.${c.name}`, `COLUMN ${name}.${quoteIdent(c.name)}`, c.comment);
  }
  const targets = commentTargets(s, relationId);
  for (const c of s.model?.comments ?? []) {
    const target = targets.get(c.id);
    if (target) add(c.id, target, target, c.comment);
  }
  return nodes;
}
