import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleGlob, simpleShape } from './simple-glob';

let root: string;

// A tree with what tinyglobby treats specially: dot directories and files (top level and nested),
// node_modules (top level and nested), a directory named like the files, files of other types.
const FILES = [
  'up.sql',
  'a.sql',
  '.hidden.sql',
  'notes.txt',
  'migrations/2019-01-01_init/up.sql',
  'migrations/2019-01-01_init/down.sql',
  'migrations/2020-02-02_more/up.sql',
  'migrations/2020-02-02_more/nested/deeper/up.sql',
  'migrations/top.sql',
  'migrations/.git/up.sql',
  'migrations/x/.cache/up.sql',
  'migrations/x/node_modules/pkg/up.sql',
  'node_modules/pkg/up.sql',
  '.config/up.sql',
  'other/up.sql.bak',
  'other/xup.sql',
];

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'dbops-simple-glob-'));
  for (const f of FILES) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), '');
  }
  mkdirSync(path.join(root, 'migrations/dir-named/up.sql'), { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sorted = (xs: readonly string[] | null): string[] | null => (xs ? [...xs].sort() : null);
const tiny = (pattern: string, cwd = root): string[] =>
  globSync(pattern, { cwd, absolute: true, ignore: ['**/node_modules/**'] })
    .map((f) => path.resolve(f))
    .sort();

describe('simpleGlob', () => {
  for (const pattern of [
    '**/up.sql',
    '**/*.sql',
    '*.sql',
    'migrations/**/*.sql',
    'migrations/*.sql',
    'migrations/**/up.sql',
    'other/**/*up.sql',
    'missing/**/*.sql',
  ])
    it(`matches what tinyglobby matches: ${pattern}`, () => {
      expect(sorted(simpleGlob(pattern, root))).toEqual(tiny(pattern));
    });

  it("matches what tinyglobby matches for a directory argument ('**/*.sql' below it)", () => {
    const dir = path.join(root, 'migrations');
    const expected = globSync('**/*.sql', { cwd: dir, absolute: true, dot: false, ignore: ['**/node_modules/**', '**/.git/**'] })
      .map((f) => path.resolve(f))
      .sort();
    expect(sorted(simpleGlob('**/*.sql', dir))).toEqual(expected);
    expect(expected.length).toBe(5);
  });

  it('leaves every other pattern to tinyglobby', () => {
    for (const p of [
      'up.sql',
      '*',
      '**',
      '**/*.{sql,psql}',
      'a/**/b/*.sql',
      '.config/**/*.sql',
      '**/**/up.sql',
      'node_modules/**/*.sql',
      'a//b/*.sql',
      'migrations/',
      '**/[ud]*.sql',
      '**/.hidden.sql',
    ])
      expect(simpleShape(p)).toBeNull();
  });

  it('gives up on a tree with a symbolic link in it (tinyglobby follows links)', () => {
    const linked = mkdtempSync(path.join(tmpdir(), 'dbops-simple-glob-link-'));
    try {
      mkdirSync(path.join(linked, 'real'));
      writeFileSync(path.join(linked, 'real/up.sql'), '');
      symlinkSync(path.join(linked, 'real'), path.join(linked, 'alias'));
      expect(simpleGlob('**/up.sql', linked)).toBeNull();
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  });
});
