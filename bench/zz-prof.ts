import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeMigration } from '../packages/core/src/analysis/analyze-migration';
import { generateSchema, writeCorpus } from './migration-corpus/generate';
const dir = mkdtempSync(path.join(tmpdir(), 'dbops-corpus-'));
const { snapshot, tables } = generateSchema(200);
const texts = writeCorpus(dir, tables, 320).map((f) => readFileSync(f, 'utf8'));
for (const t of texts.slice(0, 20)) await analyzeMigration(t, snapshot, { connectionId: 'bench', sandbox: false });
const passes: number[] = [];
for (let p = 0; p < 15; p++) {
  const t0 = performance.now();
  for (const t of texts) await analyzeMigration(t, snapshot, { connectionId: 'bench', sandbox: false });
  passes.push(performance.now() - t0);
}
console.log(passes.map((x) => x.toFixed(0)).join(' '), 'median', [...passes].sort((a, b) => a - b)[7]!.toFixed(0));
