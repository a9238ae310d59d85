import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PACKAGE, runCli } from '../support/cli';

// bin/dbops.js chooses between the bundle and the sources. A package laid out like the
// workspace's, with a bundle and sources that only say who answered.
describe('the dbops launcher (bin/dbops.js)', () => {
  let pkg: string;
  const bin = () => path.join(pkg, 'bin/dbops.js');
  const run = (env: Record<string, string> = {}) => runCli(bin(), [], { cwd: pkg, env });
  const at = (file: string, seconds: number) => utimesSync(path.join(pkg, file), seconds, seconds);

  beforeEach(() => {
    pkg = mkdtempSync(path.join(tmpdir(), 'dbops-launcher-'));
    for (const dir of ['bin', 'dist', 'src']) mkdirSync(path.join(pkg, dir));
    copyFileSync(path.join(CLI_PACKAGE, 'bin/dbops.js'), bin());
    writeFileSync(path.join(pkg, 'package.json'), '{"type":"module"}');
    // tsx, which runs the sources, resolves from the repository's node_modules.
    symlinkSync(path.join(CLI_PACKAGE, '../../node_modules'), path.join(pkg, 'node_modules'));
    writeFileSync(path.join(pkg, 'dist/dbops.mjs'), "process.stdout.write('bundle');\n");
    writeFileSync(path.join(pkg, 'src/entry.ts'), "process.stdout.write('source' as string);\n");
    writeFileSync(path.join(pkg, 'dist/sources.json'), JSON.stringify(['../src/entry.ts']));
    at('src/entry.ts', 1_000_000);
    at('dist/dbops.mjs', 2_000_000);
  });
  afterEach(() => rmSync(pkg, { recursive: true, force: true }));

  it('runs the bundle when it was built after every source in it', async () => {
    expect((await run()).stdout).toBe('bundle');
  });

  it('runs the sources when one was edited after the build', async () => {
    at('src/entry.ts', 3_000_000);
    expect((await run()).stdout).toBe('source');
  });

  it('runs the sources when the build does not list its sources, or one is gone', async () => {
    writeFileSync(path.join(pkg, 'dist/sources.json'), JSON.stringify(['../src/entry.ts', '../src/removed.ts']));
    at('dist/dbops.mjs', 2_000_000);
    expect((await run()).stdout).toBe('source');
    rmSync(path.join(pkg, 'dist/sources.json'));
    expect((await run()).stdout).toBe('source');
  });

  it('runs the sources when asked to, and the bundle where no sources are shipped', async () => {
    expect((await run({ DBOPS_CLI_FROM_SOURCE: '1' })).stdout).toBe('source');
    rmSync(path.join(pkg, 'src'), { recursive: true });
    rmSync(path.join(pkg, 'dist/sources.json'));
    expect((await run()).stdout).toBe('bundle');
  });
});
