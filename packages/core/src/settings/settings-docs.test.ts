import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET_VARIABLE_PREFIX, SETTING_NAMES } from './env-schema';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

const filesUnder = (dir: string, keep: (name: string) => boolean): string[] => {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (keep(name)) out.push(p);
    }
  };
  walk(dir);
  return out;
};

const docs = filesUnder(path.join(ROOT, 'docs'), (n) => n.endsWith('.md'))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
const documented = (name: string): boolean => new RegExp(`\\b${name}\\b`).test(docs);

const sourceFiles = ['packages', 'test', 'bench'].flatMap((d) => filesUnder(path.join(ROOT, d), (n) => /\.(ts|tsx|mjs)$/.test(n) && !n.endsWith('.d.ts')));
const rel = (f: string) => path.relative(ROOT, f);

describe('settings', () => {
  it('documents every variable the settings parse', () => {
    expect(SETTING_NAMES.filter((n) => !documented(n))).toEqual([]);
  });

  it('documents every DBOPS_ variable named anywhere in the code, tests and benches', () => {
    const undocumented = new Set<string>();
    for (const file of sourceFiles) {
      for (const [name] of readFileSync(file, 'utf8').matchAll(/\bDBOPS_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        // DBOPS_SECRET_<NAME> is the local secret store's family, documented as such.
        if (name.startsWith(SECRET_VARIABLE_PREFIX) && !SETTING_NAMES.includes(name)) continue;
        if (!documented(name)) undocumented.add(`${name} (${rel(file)})`);
      }
    }
    expect([...undocumented]).toEqual([]);
  });

  it('leaves the environment to the settings: no service code reads process.env', () => {
    // Programs other than the service parse their own (the stdio MCP client, the dbops CLI, the
    // console's build), and the local runtimes (in-process and the cloud shape) hand process.env to loadSettings.
    const allowed = new Set([
      'packages/core/src/config.ts',
      'packages/local/src/runtime.ts',
      'packages/local/src/cloud/cloud-runtime.ts',
      'packages/mcp/src/main.ts',
      'packages/cli/src/main.ts',
      // The CLI's entry (the build's code-cache switch) and its process context, which main.ts read before.
      'packages/cli/src/entry.ts',
      'packages/cli/src/guarded.ts',
    ]);
    const readers = sourceFiles
      .filter((f) => /^packages\/[^/]+\/src\//.test(rel(f)) && !/\.test\.tsx?$/.test(f) && !rel(f).startsWith('packages/web/'))
      .filter((f) => !allowed.has(rel(f)) && /\bprocess\.env\b/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(readers).toEqual([]);
  });
});
