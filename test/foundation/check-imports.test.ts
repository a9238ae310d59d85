import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve('scripts/check-imports.mjs');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A throwaway repository layout with the given files under packages/. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'check-imports-'));
  dirs.push(root);
  for (const pkg of ['core', 'functions']) {
    mkdirSync(path.join(root, 'packages', pkg, 'src'), { recursive: true });
    writeFileSync(path.join(root, 'packages', pkg, 'package.json'), JSON.stringify({ exports: { '.': './src/index.ts', './*': './src/*.ts' } }));
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, 'packages', file)), { recursive: true });
    writeFileSync(path.join(root, 'packages', file), text);
  }
  return root;
}
const run = (root: string) => spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });

describe('scripts/check-imports.mjs', () => {
  it('passes the repository itself', () => {
    const r = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });

  it('fails on a cycle, on the floor reaching a feature, and on core importing a package above it', () => {
    const r = run(
      tree({
        'core/src/analysis/a.ts': "import { b } from './b';\nexport const a = 1;\n",
        'core/src/analysis/b.ts': "import {\n  a,\n} from './a';\nexport const b = 2;\n",
        'core/src/pg/quote.ts': "import { a } from '../analysis/a';\n",
        'core/src/util/x.ts': "import { handler } from '@dbops/functions/h';\n",
        'functions/src/h.ts': "import { a } from '@dbops/core/analysis/a';\nexport const handler = a;\n",
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('import cycle: packages/core/src/analysis/a.ts <-> packages/core/src/analysis/b.ts');
    expect(r.stderr).toContain('core/pg is part of the floor and may not import core/analysis');
    expect(r.stderr).toContain('core may not import functions');
    expect(r.stderr).not.toContain('packages/functions/src/h.ts ->');
  });

  it("lets the console import the service's types, and nothing else of it", () => {
    const root = tree({
      'functions/src/routes.ts': 'export type Route = { path: string };\nexport const routes = [];\n',
      'web/src/types.ts': "import type { Route } from '@dbops/functions/routes';\nexport type R = Route;\n",
      'web/src/bundle.ts': "import { routes } from '@dbops/functions/routes';\nexport const n = routes.length;\n",
    });
    const r = run(root);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('packages/web/src/bundle.ts -> packages/functions/src/routes.ts (web may not import functions except with `import type`)');
    expect(r.stderr).not.toContain('web/src/types.ts');
  });

  it('fails on an import of a file a package does not list as an entry point, static or dynamic', () => {
    const root = tree({
      'core/src/analysis/index.ts': "export { a } from './a';\n",
      'core/src/analysis/a.ts': 'export const a = 1;\n',
      'functions/src/ok.ts': "import { a } from '@dbops/core/analysis';\nexport const ok = a;\n",
      'functions/src/deep.ts': "export const deep = () => import('@dbops/core/analysis/a');\n",
    });
    writeFileSync(path.join(root, 'packages', 'core', 'package.json'), JSON.stringify({ exports: { './analysis': './src/analysis/index.ts' } }));
    const r = run(root);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("not an entry point: packages/functions/src/deep.ts imports '@dbops/core/analysis/a'");
    expect(r.stderr).not.toContain('ok.ts');
  });
});
