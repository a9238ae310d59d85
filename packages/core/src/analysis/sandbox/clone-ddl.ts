import { schemaDdl } from '../../introspection/schema-model/schema-ddl';
import type { DdlStatement, SkippedObject } from '../../introspection/schema-model/ddl-statement';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';

/** One statement of the clone and the object it creates (to report what could not be cloned). */
export type DdlStep = DdlStatement;

/** The clone's DDL: the schema model's rebuild, and what the snapshot holds that it cannot recreate. */
export interface CloneDdl {
  steps: DdlStatement[];
  skipped: SkippedObject[];
}

const memo = new WeakMap<SchemaSnapshot, CloneDdl>();

/**
 * The statements that rebuild `snapshot` in an empty database, in dependency order
 * (`introspection/schema-model/schemaDdl`, the contract between introspection and the sandbox),
 * computed once per snapshot object (the cache key and the clone both need them).
 */
export function cloneDdl(snapshot: SchemaSnapshot): CloneDdl {
  let d = memo.get(snapshot);
  if (!d) {
    const built = schemaDdl(snapshot);
    d = { steps: built.statements, skipped: built.skipped };
    memo.set(snapshot, d);
  }
  return d;
}
