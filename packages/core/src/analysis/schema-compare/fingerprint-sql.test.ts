import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../../test/support/scratch-database';
import { compareSchemas, describeDifference, readSchemaFingerprint } from './schema-compare';

// Keys longer than PostgreSQL's 63-byte `name` once held a table's and a constraint's names
// together; a UNION typed by its first branch cut them there, so two constraints of a long-named
// table shared a key and one hid the other (found on harbor's chain: a primary key and a unique
// constraint of `report_vulnerability_record`).
describe('the schema fingerprint', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  const fingerprint = async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      return await readSchemaFingerprint((q) => c.query(q));
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    db = await createScratchDatabase('fpkeys');
    await sql(
      db.url,
      'CREATE TABLE report_vulnerability_record (id serial PRIMARY KEY, report_uuid text, vuln_record_id bigint, UNIQUE (report_uuid, vuln_record_id))',
    );
  });
  afterAll(() => db?.drop());

  it('keeps keys longer than 63 bytes whole, so no object hides another', async () => {
    const before = await fingerprint();
    const keys = [...before.keys()].filter((k) => k.startsWith('constraint public.report_vulnerability_record.'));
    expect(keys.sort()).toEqual([
      'constraint public.report_vulnerability_record.report_vulnerability_record_pkey',
      'constraint public.report_vulnerability_record.report_vulnerability_record_report_uuid_vuln_record_id_key',
    ]);
    await sql(db.url, 'ALTER TABLE report_vulnerability_record DROP CONSTRAINT report_vulnerability_record_pkey');
    expect(compareSchemas(before, await fingerprint()).map(describeDifference)).toContainEqual(
      'constraint public.report_vulnerability_record.report_vulnerability_record_pkey is missing',
    );
  });
});
