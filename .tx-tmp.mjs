import { transformSync } from 'esbuild';
import { readFileSync } from 'node:fs';
for (const f of process.argv.slice(2)) {
  const src = readFileSync(f, 'utf8');
  const r = transformSync(src, { loader: 'ts', format: 'esm', keepNames: true, target: 'node20' });
  const lines = r.code.split('\n');
  lines.forEach((l, i) => { if (/^\s+.*__name\(/.test(l)) console.log(`${f}: ${l.trim().slice(0, 110)}`); });
}
