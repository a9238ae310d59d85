import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath } from './lint-files';

describe('displayPath', () => {
  it('is path.relative, /-separated (or the file name), whichever way the paths are written', () => {
    const cases: [string, string][] = [
      ['/work/repo', '/work/repo/migrations/0001/up.sql'],
      ['/work/repo', '/work/repo/up.sql'],
      ['/work/repo', '/work/repo'],
      ['/work/repo', '/work/repository/up.sql'],
      ['/work/repo', '/work/other/up.sql'],
      ['/work/repo', '/work/repo/../repo/up.sql'],
      ['/work/repo', '/work/repo/./up.sql'],
      ['/work/repo', '/work/repo//up.sql'],
      ['/work/repo', '/work/repo/.hidden/up.sql'],
      ['/work/repo/', '/work/repo/up.sql'],
      ['/', '/up.sql'],
      ['/work/repo/..', '/work/up.sql'],
    ];
    for (const [cwd, file] of cases) expect(displayPath(cwd, file)).toBe(path.relative(cwd, file).split(path.sep).join('/') || path.basename(file));
  });
});
