import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { analyzeMigration } from '../packages/core/src/analysis/analyze-migration';
import { generateSchema, writeCorpus } from './migration-corpus/generate';
const DIR = '/tmp/corpus320';
const { snapshot, tables } = generateSchema(200);
if (!existsSync(DIR)) writeCorpus(DIR, tables, 320);
const texts = readdirSync(DIR).filter((f) => f.endsWith('.sql')).sort().map((f) => readFileSync(path.join(DIR, f), 'utf8'));
for (const t of texts.slice(0, 40)) await analyzeMigration(t, snapshot, { connectionId: 'bench', sandbox: false });
const passes: number[] = [];
let w = 0;
for (let p = 0; p < Number(process.env.P ?? 15); p++) {
  const c0 = process.cpuUsage(); w = 0;
  for (const t of texts) w += (await analyzeMigration(t, snapshot, { connectionId: 'bench', sandbox: false })).warnings.length;
  { const c = process.cpuUsage(c0); passes.push((c.user + c.system) / 1000); }
}
const s = [...passes].sort((a, b) => a - b);
console.log(`${process.cwd()} files=${texts.length} warnings=${w} median=${s[Math.floor(s.length / 2)]!.toFixed(0)} min=${s[0]!.toFixed(0)}`);
