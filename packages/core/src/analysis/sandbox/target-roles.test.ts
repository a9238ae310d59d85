import { describe, expect, it } from 'vitest';
import { rolesNamedBy } from './target-roles';

describe('rolesNamedBy', () => {
  const target = ['anon', 'service_role', 'Reporting', 'dbops_builder', 'dbops_run_ab12', 'app'];

  it('finds names in identifiers, quoted identifiers and dynamic SQL, as whole words', () => {
    const texts = [
      "DO $$ BEGIN EXECUTE 'GRANT ALL ON t TO ' || 'service_role'; END $$",
      'CREATE POLICY p ON t TO "Reporting" USING (true)',
      'ALTER TABLE application ADD COLUMN anonymous boolean', // neither "app" nor "anon" as a word
    ];
    expect(rolesNamedBy(target, texts)).toEqual(['Reporting', 'service_role']);
  });

  it("never mirrors the sandbox's own roles, and nothing without the target's list", () => {
    expect(rolesNamedBy(target, ['GRANT x TO dbops_builder, dbops_run_ab12, anon'])).toEqual(['anon']);
    expect(rolesNamedBy(undefined, ['GRANT x TO anon'])).toEqual([]);
  });
});
