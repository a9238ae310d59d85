import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AJ for `bench/lock-timing.ts` (issue #32), written and committed after AI ran and
 * before the changes AI's run called for, to be run once after them. Shapes no earlier set or
 * calibration table has:
 * - course enrollments under a two-column primary key (student, course), a term in daterange
 *   (GiST indexed), a grade in numeric(3,1) under a CHECK, a status in text of four values, an
 *   enrolment date, a note on some rows; courses they reference (ON DELETE CASCADE, a few hundred
 *   enrollments a course) with a department; an AFTER INSERT OR DELETE row trigger keeping a
 *   per-course count in another table (an UPDATE per fire); an index on student and date besides
 *   the key; an archive filled by INSERT ... SELECT;
 * - statements: a CHECK on the status added, an UPDATE completing enrollments whose term ended
 *   (an expression on the range), an UPDATE of the grade of one department's courses (a
 *   subquery), a DELETE of dropped enrollments through the trigger, a DELETE of retired courses
 *   cascading into their enrollments (and the trigger), the archive's INSERT, a partial GiST index on the
 *   term of active enrollments, an index on the lower-cased note (text_pattern_ops), an index on the
 *   student and date descending, a hash index on the course built CONCURRENTLY, the grade's
 *   precision widened under its CHECK (no rewrite, the CHECK read again), the status changed to
 *   varchar(16), VACUUM FULL, and a column added NOT NULL with a default.
 * Variant A: 1M enrollments of 40,000 students in enrolment order, courses taking turns. Variant
 * B: 350k in no heap order, a tenth of the courses holding most, notes of about 150 bytes on half
 * the rows, at fillfactor 85.
 */
export function setAJ(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const courses = 3_000;
  // In B the rows go in by a permutation of g (a multiplier prime to n), in bigint (the products pass 2^31).
  const k = b ? `((g::bigint * 7919) % ${n} + 1)` : 'g::bigint';
  // Student and course make the key: the k-th enrollment is student k / 25, its course a function of k (distinct for one student).
  const student = `(${k} / 25 + 1)`;
  const course = b
    ? `(CASE WHEN ${k} % 10 < 7 THEN 1 + ((${k} % 25) * 11 + (${k} / 25) % 11) % 300 ELSE 301 + ((${k} % 25) * 97 + (${k} / 25) * 7) % ${courses - 300} END)`
    : `(1 + ((${k} % 25) * 119 + (${k} / 25) * 3) % ${courses})`;
  const start = `(date '2020-01-06' + ((${k} * 1461) / ${n})::int)`;
  const note = b
    ? `CASE WHEN ${k} % 2 = 0 THEN 'Note: ' || repeat(md5(${k}::text), 4) END`
    : `CASE WHEN ${k} % 20 = 0 THEN 'Transferred from ' || ${k} % 90 END`;
  const setup = [
    `DROP TABLE IF EXISTS haj_enrollments, haj_courses, haj_course_counts, haj_archive CASCADE`,
    `DROP FUNCTION IF EXISTS haj_count() CASCADE`,
    `CREATE TABLE haj_courses (id int PRIMARY KEY, dept text NOT NULL, retired boolean NOT NULL)`,
    `INSERT INTO haj_courses SELECT g, (ARRAY['math', 'physics', 'history', 'art', 'biology', 'law'])[1 + g % 6], g % 71 = 0 FROM generate_series(1, ${courses}) g`,
    `CREATE TABLE haj_course_counts (course_id int PRIMARY KEY, n bigint NOT NULL)`,
    `INSERT INTO haj_course_counts SELECT id, 0 FROM haj_courses`,
    `CREATE TABLE haj_enrollments (student_id int NOT NULL, course_id int NOT NULL REFERENCES haj_courses (id) ON DELETE CASCADE, term daterange NOT NULL,
       grade numeric(3,1) CHECK (grade BETWEEN 0 AND 10), status text NOT NULL, enrolled_on date NOT NULL, note text,
       PRIMARY KEY (student_id, course_id))${b ? ' WITH (fillfactor = 85)' : ''}`,
    `INSERT INTO haj_enrollments
     SELECT ${student}, ${course}, daterange(${start}, ${start} + 120), CASE WHEN ${k} % 6 = 0 THEN NULL ELSE ((${k} * 37) % 101) / 10.0 END,
            (ARRAY['active', 'active', 'completed', 'dropped', 'completed', 'active', 'completed', 'failed'])[1 + (${k} * 5) % 8], ${start} - 14, ${note}
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX haj_enrollments_student_date ON haj_enrollments (student_id, enrolled_on)`,
    `CREATE INDEX haj_enrollments_term ON haj_enrollments USING gist (term)`,
    `CREATE FUNCTION haj_count() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN
       IF TG_OP = 'INSERT' THEN UPDATE haj_course_counts SET n = n + 1 WHERE course_id = NEW.course_id; RETURN NEW; END IF;
       UPDATE haj_course_counts SET n = n - 1 WHERE course_id = OLD.course_id; RETURN OLD; END$$`,
    `CREATE TRIGGER haj_enrollments_count AFTER INSERT OR DELETE ON haj_enrollments FOR EACH ROW EXECUTE FUNCTION haj_count()`,
    `CREATE TABLE haj_archive (LIKE haj_enrollments)`,
    `VACUUM ANALYZE haj_courses, haj_course_counts, haj_enrollments`,
  ];
  const statements = [
    `ALTER TABLE haj_enrollments ADD CONSTRAINT haj_status_ok CHECK (status IN ('active', 'completed', 'dropped', 'failed'))`,
    `UPDATE haj_enrollments SET status = 'completed' WHERE status = 'active' AND upper(term) < date '2021-01-01'`,
    `UPDATE haj_enrollments SET grade = least(grade + 0.5, 10) WHERE course_id IN (SELECT id FROM haj_courses WHERE dept = 'math')`,
    `DELETE FROM haj_enrollments WHERE status = 'dropped' AND enrolled_on < date '2021-06-01'`,
    `DELETE FROM haj_courses WHERE retired`,
    `INSERT INTO haj_archive SELECT * FROM haj_enrollments WHERE enrolled_on < date '2020-09-01'`,
    `CREATE INDEX haj_c1 ON haj_enrollments USING gist (term) WHERE status = 'active'`,
    `DROP INDEX haj_c1`,
    `CREATE INDEX haj_c2 ON haj_enrollments (lower(note) text_pattern_ops) WHERE note IS NOT NULL`,
    `DROP INDEX haj_c2`,
    `CREATE INDEX haj_c3 ON haj_enrollments (student_id, enrolled_on DESC)`,
    `DROP INDEX haj_c3`,
    `CREATE INDEX CONCURRENTLY haj_c4 ON haj_enrollments USING hash (course_id)`,
    `DROP INDEX haj_c4`,
    `ALTER TABLE haj_enrollments ALTER COLUMN grade TYPE numeric(4,1)`,
    `ALTER TABLE haj_enrollments ALTER COLUMN status TYPE varchar(16)`,
    `VACUUM FULL haj_enrollments`,
    `ALTER TABLE haj_enrollments ADD COLUMN credits smallint NOT NULL DEFAULT 5`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) =>
      sql.startsWith('INSERT INTO haj_archive ') ? 'haj_archive' : sql.includes('haj_courses WHERE retired') ? 'haj_courses' : 'haj_enrollments',
  };
}
