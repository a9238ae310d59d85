/**
 * Runs every reference SQL of the exercise-style set and the validation set against its fixture and prints how many rows
 * each returns: a reference that fails or returns nothing is a defect of the set, not of a
 * generator. `npx tsx bench/text-to-sql-eval/check-references.ts`
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { startTargetServer } from '../../test/support/target-server';
import { CORPORA, questionsPathOf } from './corpora';

const server = await startTargetServer();
const urlOf = (db: string) => server.url.replace(/\/postgres$/, `/${db}`);
let bad = 0;
try {
  for (const corpus of CORPORA.filter((c) => c.set !== 'plain')) {
    const database = `check_${corpus.name}`;
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    await corpus.load(
      '',
      (db, script) => {
        execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', urlOf(db)], { input: script, stdio: ['pipe', 'ignore', 'pipe'] });
      },
      database,
    );
    const db = new pg.Client({ connectionString: urlOf(database) });
    await db.connect();
    const questions = JSON.parse(await readFile(questionsPathOf(corpus), 'utf8')) as Array<{ q: string; sql: string }>;
    for (const [i, q] of questions.entries()) {
      try {
        const n = (await db.query(q.sql)).rowCount ?? 0;
        if (n === 0) bad++;
        console.log(`${n === 0 ? 'EMPTY' : 'ok   '} ${corpus.name}#${i} ${n} rows`);
      } catch (e) {
        bad++;
        console.log(`ERROR ${corpus.name}#${i} ${(e as Error).message}`);
      }
    }
    await db.end();
  }
} finally {
  await server.stop();
}
console.log(`${bad} references failed or returned no rows`);
