import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set R for `bench/lock-timing.ts` (issue #32, eighth round), written and committed
 * before the round's first model change, to be run once on the model the round ends with. Shapes
 * no earlier set or calibration table has:
 * - support tickets: a bigint key, an organisation they reference (a parent of 5k rows), a state of
 *   an enum type of its own, a priority in smallint, a subject and a body in text, jsonb tags, an
 *   assignee uuid that is null for a third of them, created and updated timestamptz, and three
 *   indexes besides the key (one of them partial);
 * - a summary table filled by an aggregating INSERT ... SELECT;
 * - statements: a CHECK on a range of the priority, a foreign key added NOT VALID and then
 *   validated, an UPDATE of the state on two correlated conditions (resolved and not touched
 *   since a date), an UPDATE of the jsonb tags on an expression of the organisation, a DELETE on
 *   the enum, the aggregating INSERT, an expression index on lower(subject), a GIN index on the
 *   tags with jsonb_path_ops, a partial index on the assignee, a hash index on the assignee, SET
 *   NOT NULL on the subject, a type change of the priority (smallint to int: a rewrite rebuilding
 *   four indexes) and a column added with a constant default (the catalog only).
 * Variant A: 1M tickets, short bodies, organisations even. Variant B: 250k tickets with bodies of
 * about 2 kB (TOASTed), a few organisations holding most tickets, updates clustered on recent days.
 */
export function setR(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const orgs = 5_000;
  const org = b ? `1 + ((g * g) % 97) * ((g % 3) + 1) % ${orgs}` : `1 + (g * 7919) % ${orgs}`;
  const state = `(ARRAY['new','open','pending','resolved','closed','spam'])[1 + (g * 13) % ${b ? 11 : 6} % 6]::hr_state`;
  const updated = b
    ? `timestamptz '2025-06-01' + ((g * 17) % 30) * interval '1 hour' + (g % 3600) * interval '1 second'`
    : `timestamptz '2024-01-01' + ((g * 104729) % 600) * interval '1 day'`;
  const body = b ? `repeat('The export stalls at 99 percent and the log shows a timeout. ', 34) || g` : `'Ticket body ' || g`;
  const resolvedBefore = b ? `timestamptz '2025-06-01 12:00'` : `timestamptz '2025-01-01'`;
  const setup = [
    `DROP TABLE IF EXISTS hr_org_stats, hr_tickets, hr_orgs CASCADE`,
    `DROP TYPE IF EXISTS hr_state`,
    `CREATE TYPE hr_state AS ENUM ('new', 'open', 'pending', 'resolved', 'closed', 'spam')`,
    `CREATE TABLE hr_orgs (id int PRIMARY KEY, name text NOT NULL, plan text NOT NULL)`,
    `INSERT INTO hr_orgs SELECT g, 'Org ' || g, (ARRAY['free','team','enterprise'])[1 + g % 3] FROM generate_series(1, ${orgs}) g`,
    `CREATE TABLE hr_tickets (id bigint PRIMARY KEY, org_id int NOT NULL, state hr_state NOT NULL, priority smallint NOT NULL,
       subject text, body text NOT NULL, tags jsonb NOT NULL, assignee uuid, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`,
    `INSERT INTO hr_tickets
     SELECT g, ${org}, ${state}, (1 + g % 5)::smallint, 'Cannot export report #' || (g % 5000), ${body},
            jsonb_build_object('channel', (ARRAY['mail','chat','phone'])[1 + g % 3], 'lang', (ARRAY['en','de','fr','ja'])[1 + (g * 7) % 4])
              || CASE WHEN g % 5 = 0 THEN jsonb_build_object('vip', true) ELSE '{}'::jsonb END,
            CASE WHEN g % 3 = 0 THEN NULL ELSE md5((g % 900)::text)::uuid END,
            ${updated} - interval '3 days', ${updated}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hr_tickets_org_state ON hr_tickets (org_id, state)`,
    `CREATE INDEX hr_tickets_updated ON hr_tickets (updated_at)`,
    `CREATE INDEX hr_tickets_open ON hr_tickets (priority, created_at) WHERE state IN ('new', 'open')`,
    `CREATE TABLE hr_org_stats (org_id int PRIMARY KEY, tickets int NOT NULL, last_update timestamptz NOT NULL)`,
    `VACUUM ANALYZE hr_orgs, hr_tickets, hr_org_stats`,
  ];
  const statements = [
    `ALTER TABLE hr_tickets ADD CONSTRAINT hr_priority_range CHECK (priority BETWEEN 1 AND 5)`,
    `SETUP ALTER TABLE hr_tickets ADD CONSTRAINT hr_tickets_org_fk FOREIGN KEY (org_id) REFERENCES hr_orgs (id) NOT VALID`,
    `ALTER TABLE hr_tickets VALIDATE CONSTRAINT hr_tickets_org_fk`,
    `UPDATE hr_tickets SET state = 'closed' WHERE state = 'resolved' AND updated_at < ${resolvedBefore}`,
    `UPDATE hr_tickets SET tags = tags || '{"migrated": true}' WHERE org_id % 4 = 0`,
    `DELETE FROM hr_tickets WHERE state = 'spam'`,
    `INSERT INTO hr_org_stats SELECT org_id, count(*), max(updated_at) FROM hr_tickets GROUP BY org_id`,
    `CREATE INDEX hr_r1 ON hr_tickets (lower(subject))`,
    `DROP INDEX hr_r1`,
    `CREATE INDEX hr_r2 ON hr_tickets USING gin (tags jsonb_path_ops)`,
    `DROP INDEX hr_r2`,
    `CREATE INDEX hr_r3 ON hr_tickets (assignee) WHERE state <> 'closed'`,
    `DROP INDEX hr_r3`,
    `CREATE INDEX hr_r4 ON hr_tickets USING hash (assignee)`,
    `DROP INDEX hr_r4`,
    `ALTER TABLE hr_tickets ALTER COLUMN subject SET NOT NULL`,
    `ALTER TABLE hr_tickets ALTER COLUMN priority TYPE int`,
    `ALTER TABLE hr_tickets ADD COLUMN escalated boolean NOT NULL DEFAULT false`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^INSERT INTO hr_org_stats/.test(sql) ? 'hr_org_stats' : 'hr_tickets'),
  };
}
