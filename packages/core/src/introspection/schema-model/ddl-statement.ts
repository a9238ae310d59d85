/** What a statement of {@link schemaDdl} creates, to name it when it fails or is skipped. */
export type DdlObjectKind =
  | 'setting'
  | 'schema'
  | 'extension'
  | 'type'
  | 'sequence'
  | 'routine'
  | 'table'
  | 'view'
  | 'materialized_view'
  | 'constraint'
  | 'foreign_key'
  | 'index'
  | 'statistics'
  | 'trigger'
  | 'rule'
  | 'policy'
  | 'comment';

/** One statement of the rebuilt schema. */
export interface DdlStatement {
  /** The object it creates or alters, as `schema.name` (a column or constraint as `schema.table.name`). */
  object: string;
  kind: DdlObjectKind;
  sql: string;
}

/** An object of the snapshot that no statement recreates, and why. */
export interface SkippedObject {
  object: string;
  reason: string;
}

/** The answer of `schemaDdl`. */
export interface SchemaDdl {
  /** In the order to run them, on one session (the first ones are session settings). */
  statements: DdlStatement[];
  skipped: SkippedObject[];
}

/**
 * A step of the dependency sort: statements that go together, the id of what they create and
 * the ids they need first. Statements of one node stay together and in order.
 */
export interface DdlNode {
  id: string;
  /** Lower first among nodes whose dependencies are all placed (pg_dump's type order). */
  rank: number;
  deps: string[];
  statements: DdlStatement[];
}

/** Ranks of {@link DdlNode}: the order pg_dump gives object types, used where no dependency decides. */
export const RANK = {
  setting: 0,
  schema: 1,
  extension: 2,
  type: 3,
  routine: 4,
  sequence: 5,
  table: 6,
  view: 7,
  sequence_owner: 8,
  constraint: 9,
  index: 10,
  index_attach: 11,
  rule: 12,
  trigger: 13,
  foreign_key: 14,
  policy: 15,
  table_extra: 16,
  comment: 17,
} as const;
