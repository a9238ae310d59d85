import { quoteIdent } from '../../pg/quote';
import { qualifiedName, type SchemaSnapshot } from '../schema-snapshot';
import { commentNodes } from './comment-ddl';
import { RANK, type DdlNode, type SchemaDdl, type SkippedObject } from './ddl-statement';
import { orderNodes } from './dependency-order';
import { label } from './names';
import { enumNodes, modelNodes, schemaAndExtensionNodes } from './object-ddl';
import { sequenceNodes } from './sequence-ddl';
import { identitySequences, relationId, tableNodes, viewNode } from './table-ddl';

/**
 * Session settings the statements assume: definitions were deparsed under the snapshot's
 * search path, so they are run under it; function bodies are checked when called, not when
 * created (as pg_dump's output does), since a body may name objects created later.
 */
function settingNodes(s: SchemaSnapshot): DdlNode[] {
  const path = s.search_path?.length ? s.search_path.map(quoteIdent).join(', ') : 'public';
  return [
    {
      id: 'settings',
      rank: RANK.setting,
      deps: [],
      statements: [
        { object: 'session', kind: 'setting', sql: 'SET check_function_bodies = false' },
        { object: 'session', kind: 'setting', sql: `SET search_path TO ${path}` },
      ],
    },
  ];
}

/**
 * Everything the ordering needs beyond each node's own dependencies: every object after the
 * session settings and its schema, and, from the snapshot's `pg_depend` pairs, each object
 * after what it references. Views also follow the relations they read (version 1 snapshots
 * have no pairs).
 */
function addDependencies(nodes: DdlNode[], s: SchemaSnapshot): void {
  const byId = new Map<string, DdlNode[]>();
  for (const n of nodes) {
    const list = byId.get(n.id);
    if (list) list.push(n);
    else byId.set(n.id, [n]);
  }
  const relations = new Map(s.tables.map((t) => [qualifiedName(t), relationId(t)]));
  for (const d of s.view_dependencies) {
    const view = relations.get(d.view);
    const table = relations.get(d.table);
    if (view && table && view !== table) for (const n of byId.get(view) ?? []) n.deps.push(table);
  }
  // An index that backs a constraint is created by it: pairs name the index, nodes the constraint.
  const alias = new Map<string, string>();
  for (const t of s.tables) {
    for (const i of t.indexes) {
      const c = i.id && i.constraint ? t.constraints.find((k) => k.name === i.constraint) : undefined;
      if (c?.id) alias.set(i.id!, c.id);
    }
  }
  const of = (id: string): string => alias.get(id) ?? id;
  for (const [from, to] of s.model?.dependencies ?? []) for (const n of byId.get(of(from)) ?? []) n.deps.push(of(to));
  for (const n of nodes) if (n.id !== 'settings') n.deps.push('settings');
}

/**
 * The ordered DDL that recreates the snapshot's schemas in an empty database of the same
 * major version, with the extensions it uses available: schemas, extensions, types,
 * sequences, routines, tables (partitions, inheritance, identity and generated columns),
 * constraints, indexes, views, triggers, rules, policies and comments, each after what it
 * depends on. Owners and grants are not recreated. Version 1 snapshots (before the schema
 * model) give what they hold: schemas, extensions, enums, sequences, relations, keys, indexes,
 * views and comments; what they lack is listed in `skipped`.
 */
export function schemaDdl(snapshot: SchemaSnapshot): SchemaDdl {
  const skipped: SkippedObject[] = [];
  const byName = new Map(snapshot.tables.map((t) => [qualifiedName(t), t]));
  const tableId = (schema: string, name: string): string => {
    const t = byName.get(`${schema}.${name}`);
    return t ? relationId(t) : `rel:${schema}.${name}`;
  };
  const identity = identitySequences(snapshot);
  const nodes: DdlNode[] = [...settingNodes(snapshot), ...schemaAndExtensionNodes(snapshot), ...enumNodes(snapshot), ...sequenceNodes(snapshot, relationId)];
  if (snapshot.model) {
    nodes.push(...modelNodes(snapshot.model, tableId));
    for (const u of snapshot.model.uncaptured ?? []) skipped.push({ object: label(u.schema, u.name), reason: `${u.kind}: not in the schema model` });
  } else
    skipped.push({
      object: 'schema',
      reason:
        'snapshot taken before the schema model: domains, composite and range types, functions, triggers, rules and policies are not in it (introspect again)',
    });
  for (const t of snapshot.tables) {
    if (t.kind === 'view' || t.kind === 'materialized_view') {
      const node = viewNode(t);
      if (node) nodes.push(node);
      else skipped.push({ object: label(t.schema, t.name), reason: 'no view definition in the snapshot' });
      // Indexes of materialized views.
      if (t.kind === 'materialized_view') nodes.push(...tableNodes({ ...t, constraints: [], foreign_keys: [] }, snapshot, byName, identity).slice(1));
      continue;
    }
    if (t.from_extension) continue;
    if (t.kind === 'foreign_table') {
      skipped.push({ object: label(t.schema, t.name), reason: 'foreign tables are not recreated (their server and user mapping are not in the snapshot)' });
      continue;
    }
    nodes.push(...tableNodes(t, snapshot, byName, identity));
  }
  nodes.push(...commentNodes(snapshot, relationId));
  addDependencies(nodes, snapshot);
  return { statements: orderNodes(nodes), skipped };
}
