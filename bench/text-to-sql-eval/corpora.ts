/**
 * The public sample schemas of the text-to-SQL evaluation. Each is read when the bench runs from
 * a git mirror of its public repository (never copied into this one), at a pinned commit, and
 * loaded with psql into its own database of the bench's PostgreSQL server.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const MIRROR = process.env.DBOPS_MIRROR_DIR ?? '/work/.mirror';

export interface Corpus {
  name: string;
  repo: string;
  ref: string;
  /** Questions file in bench/text-to-sql-eval/questions/ (plain set) or exercises/ (exercise set). */
  questions: string;
  /**
   * `plain`: the 161 plain business questions; `exercise`: the exercise-style set over our own
   * schemas; `validation`: the calibration check over `care` (casual user phrasing, never tuned on).
   */
  set: 'plain' | 'exercise' | 'validation';
  /** True for pagila and the validation set: reported on their own, never part of the tuning or held-out figures. */
  independent: boolean;
  /** Loads the schema and its rows into `database` (created empty beforehand). */
  load(gitDir: string, psql: (database: string, script: string) => void, database: string): Promise<void>;
}

const show = (gitDir: string, ref: string, file: string): string =>
  execFileSync('git', ['--git-dir', gitDir, 'show', `${ref}:${file}`], { maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' });

export const CORPORA: Corpus[] = [
  {
    name: 'chinook',
    repo: 'lerocha/chinook-database',
    ref: '7f67772',
    questions: 'chinook.json',
    set: 'plain',
    independent: false,
    // The script creates its own database (DROP/CREATE DATABASE chinook, \c chinook); it is run
    // with its CREATE DATABASE pointed at ours.
    load: async (gitDir, psql, database) => {
      const script = show(gitDir, '7f67772', 'ChinookDatabase/DataSources/Chinook_PostgreSql.sql')
        .replace(/^DROP DATABASE IF EXISTS chinook;$/m, '')
        .replace(/^CREATE DATABASE chinook;$/m, '')
        .replace(/^\\c chinook;$/m, '');
      psql(database, script);
    },
  },
  {
    name: 'northwind',
    repo: 'pthom/northwind_psql',
    ref: 'cd0ef28',
    questions: 'northwind.json',
    set: 'plain',
    independent: false,
    load: async (gitDir, psql, database) => psql(database, show(gitDir, 'cd0ef28', 'northwind.sql')),
  },
  {
    name: 'world',
    repo: 'ghusta/docker-postgres-world-db',
    ref: '19a6fdd',
    questions: 'world.json',
    set: 'plain',
    independent: false,
    // world.sql COPYs its rows from CSV files next to it (a Docker init directory): the files are
    // written to a directory the server's OS user can read and the paths pointed there.
    load: async (gitDir, psql, database) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'dbops-world-'));
      await chmod(dir, 0o755);
      for (const f of ['city_utf8.csv', 'country_utf8.csv', 'country_language_utf8.csv', 'country_flag_utf8.csv']) {
        await writeFile(path.join(dir, f), show(gitDir, '19a6fdd', `scripts/${f}`));
        await chmod(path.join(dir, f), 0o644);
      }
      psql(database, show(gitDir, '19a6fdd', 'scripts/world.sql').replaceAll('/docker-entrypoint-initdb.d/', `${dir}/`));
    },
  },
  {
    name: 'pagila',
    repo: 'devrimgunduz/pagila',
    // The last commit whose data file is stored whole in the mirror; payment is partitioned by month.
    ref: 'e0e35a6',
    questions: 'pagila.json',
    set: 'plain',
    independent: true,
    load: async (gitDir, psql, database) => {
      psql(database, show(gitDir, 'e0e35a6', 'pagila-schema.sql'));
      psql(database, show(gitDir, 'e0e35a6', 'pagila-data.sql'));
    },
  },
];

/**
 * The exercise-style set: verbose questions with explicit output columns ("Produce a list of ...
 * Return ... sorted by ..."), written before the offline generator was tuned for them, over three
 * schemas written for it (bench/text-to-sql-eval/fixtures/, no mirror needed); `lending` and
 * `market` live outside the public schema.
 */
const fixture = (name: string): Corpus => ({
  name,
  repo: '',
  ref: '',
  questions: `${name}.json`,
  set: 'exercise',
  independent: false,
  load: async (_gitDir, psql, database) => psql(database, readFileSync(path.join(import.meta.dirname, 'fixtures', `${name}.sql`), 'utf8')),
});
CORPORA.push(fixture('lending'), fixture('fleet'), fixture('market'));

/**
 * The calibration check (questions in bench/text-to-sql-eval/validation/): short, casual questions
 * as a user types them ("the 5 priciest appointments", "break down appointments by status") over
 * `care`, a schema of our own outside `public` with two join paths to a clinic. Written and
 * committed before the generator's confidence was reworked for it; only its aggregates are read,
 * so it measures whether confidence >= 0.8 holds on phrasing nobody tuned for.
 */
CORPORA.push({ ...fixture('care'), set: 'validation', independent: true });

/** Where a corpus's questions file is. */
export const questionsPathOf = (corpus: Corpus): string =>
  path.join(import.meta.dirname, { plain: 'questions', exercise: 'exercises', validation: 'validation' }[corpus.set], corpus.questions);

export const gitDirOf = (corpus: Corpus): string => path.join(MIRROR, corpus.repo.replace('/', '+'), 'repo');
