import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AD for `bench/lock-timing.ts` (issue #32, seventeenth round), written and committed
 * before that round's changes, to be run once after them. Shapes no earlier set or calibration
 * table has:
 * - a task tracker: tasks keyed by a uuid (made from a hash, so in no order), a project they
 *   reference (ON DELETE CASCADE, hundreds of tasks a project), a state in text of four values, a
 *   priority in smallint, an estimate in numeric(6,2), tags in text[] (none to three of 24), a due
 *   date, an assignee NULL on two fifths of the rows, a title, a BEFORE UPDATE trigger setting
 *   `updated_at`; four indexes besides the key (project and state, a partial one on the assignee,
 *   GIN on the tags, the due date);
 * - a summary of projects and states filled by an aggregating INSERT;
 * - statements: a CHECK on the priority, a foreign key validated, an UPDATE closing reviewed tasks
 *   past their due date, an UPDATE of the estimate where an array holds a tag (HOT, through the
 *   trigger), an UPDATE appending a tag (GIN maintained), a DELETE of old finished tasks, a DELETE
 *   of archived projects cascading into their tasks, the aggregating INSERT, an index on the
 *   estimate (numeric), a unique index on an external uuid, an index on the lower-cased title, an
 *   index on project and due date built CONCURRENTLY, the priority's type changed to int (a
 *   rewrite rebuilding the GIN index among six), SET NOT NULL on the title, and three catalog
 *   statements (a nullable column, a column NOT NULL with a default, a default set).
 * Variant A: 1.2M tasks in creation order, 2,000 projects taking turns. Variant B: 400k tasks
 * inserted in no order, 300 projects of which a tenth hold most tasks, a description of about 300
 * bytes on half the rows, at fillfactor 90.
 */
export function setAD(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const projects = b ? 300 : 2000;
  // In B the rows go in by a permutation of g (a multiplier prime to n), so keys and dates are in no heap order. In bigint: g * 7919 passes 2^31.
  const k = b ? `((g::bigint * 7919) % ${n} + 1)` : 'g';
  const project = b ? `CASE WHEN ${k} % 10 < 7 THEN 1 + (${k} * 7) % 30 ELSE 1 + (${k} * 13) % ${projects} END` : `1 + ${k} % ${projects}`;
  const created = `timestamptz '2023-01-01' + (${k} * 63072000.0 / ${n}) * interval '1 second'`;
  const tags = `(ARRAY(SELECT (ARRAY['urgent','bug','ui','api','db','docs','perf','ops','sec','ux','qa','infra',
                       'mobile','web','billing','auth','search','email','legal','data','ml','growth','ios','android'])[1 + (${k} * s * 31) % 24]
                     FROM generate_series(1, ${k} % 4) s))`;
  const description = b ? `CASE WHEN ${k} % 2 = 0 THEN repeat(md5(${k}::text), 9) END` : 'NULL';
  const setup = [
    `DROP TABLE IF EXISTS had_tasks, had_projects, had_project_states CASCADE`,
    `CREATE TABLE had_projects (id int PRIMARY KEY, name text NOT NULL, archived boolean NOT NULL)`,
    `INSERT INTO had_projects SELECT g, 'project ' || g, g % 97 = 0 FROM generate_series(1, ${projects}) g`,
    `CREATE TABLE had_tasks (id uuid PRIMARY KEY, project_id int NOT NULL, state text NOT NULL, priority smallint NOT NULL,
       estimate numeric(6,2), tags text[] NOT NULL, due date, assignee int, title text, description text, external_ref uuid NOT NULL,
       created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)${b ? ' WITH (fillfactor = 90)' : ''}`,
    `INSERT INTO had_tasks
     SELECT md5('task' || ${k})::uuid, ${project}, (ARRAY['todo', 'doing', 'review', 'done'])[1 + (${k} * 3) % 4], 1 + ${k} % 5,
            round(((${k} * 37) % 4000) / 100.0, 2), ${tags}, (${created})::date + (${k} % 60)::int,
            CASE WHEN ${k} % 5 < 2 THEN NULL ELSE (${k} * 11) % 5000 END, 'Task ' || ${k} || ' for ' || (ARRAY['Checkout', 'login', 'Search', 'reports'])[1 + ${k} % 4],
            ${description}, md5('ref' || ${k})::uuid, ${created}, ${created}
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX had_tasks_project_state ON had_tasks (project_id, state)`,
    `CREATE INDEX had_tasks_assignee ON had_tasks (assignee) WHERE assignee IS NOT NULL`,
    `CREATE INDEX had_tasks_tags ON had_tasks USING gin (tags)`,
    `CREATE INDEX had_tasks_due ON had_tasks (due)`,
    `CREATE OR REPLACE FUNCTION had_touch() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN NEW.updated_at := now(); RETURN NEW; END$$`,
    `CREATE TRIGGER had_tasks_touch BEFORE UPDATE ON had_tasks FOR EACH ROW EXECUTE FUNCTION had_touch()`,
    `CREATE TABLE had_project_states (project_id int NOT NULL, state text NOT NULL, tasks bigint NOT NULL, estimate numeric NOT NULL,
       PRIMARY KEY (project_id, state))`,
    `VACUUM ANALYZE had_projects, had_tasks`,
  ];
  const statements = [
    `ALTER TABLE had_tasks ADD CONSTRAINT had_priority_ok CHECK (priority BETWEEN 1 AND 5)`,
    `SETUP ALTER TABLE had_tasks ADD CONSTRAINT had_tasks_project_fk FOREIGN KEY (project_id) REFERENCES had_projects (id) ON DELETE CASCADE NOT VALID`,
    `ALTER TABLE had_tasks VALIDATE CONSTRAINT had_tasks_project_fk`,
    `UPDATE had_tasks SET state = 'done' WHERE state = 'review' AND due < date '2023-07-01'`,
    `UPDATE had_tasks SET estimate = estimate * 2 WHERE 'urgent' = ANY (tags)`,
    `UPDATE had_tasks SET tags = array_append(tags, 'triaged') WHERE priority = 1 AND assignee IS NULL`,
    `DELETE FROM had_tasks WHERE state = 'done' AND created_at < timestamptz '2023-04-01'`,
    `DELETE FROM had_projects WHERE archived`,
    `INSERT INTO had_project_states SELECT project_id, state, count(*), coalesce(sum(estimate), 0) FROM had_tasks GROUP BY project_id, state`,
    `CREATE INDEX had_c1 ON had_tasks (estimate)`,
    `DROP INDEX had_c1`,
    `CREATE UNIQUE INDEX had_c2 ON had_tasks (external_ref)`,
    `DROP INDEX had_c2`,
    `CREATE INDEX had_c3 ON had_tasks (lower(title))`,
    `DROP INDEX had_c3`,
    `CREATE INDEX CONCURRENTLY had_c4 ON had_tasks (project_id, due)`,
    `DROP INDEX had_c4`,
    `ALTER TABLE had_tasks ALTER COLUMN priority TYPE int`,
    `ALTER TABLE had_tasks ALTER COLUMN title SET NOT NULL`,
    `ALTER TABLE had_tasks ADD COLUMN closed_at timestamptz`,
    `ALTER TABLE had_tasks ADD COLUMN points int NOT NULL DEFAULT 1`,
    `ALTER TABLE had_tasks ALTER COLUMN state SET DEFAULT 'todo'`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) =>
      sql.startsWith('INSERT INTO had_project_states ') ? 'had_project_states' : sql.includes('had_projects WHERE') ? 'had_projects' : 'had_tasks',
  };
}
