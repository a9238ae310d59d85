import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import picomatch from 'picomatch';
import { globSync, isDynamicPattern } from 'tinyglobby';
import { CliError } from '../cli-error';

export interface CollectOptions {
  cwd: string;
  excluded: readonly { root: string; pattern: string }[];
  /** Only files changed against this git ref (`--git-diff`). */
  gitDiff?: string;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** Files changed against `ref` (committed, staged or not, and untracked), absolute. */
function changedFiles(cwd: string, ref: string): Set<string> {
  // node:child_process (with net and dgram behind it) is loaded only for --git-diff: plain lint runs never pay for it.
  const { execFileSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const git = (args: string[]): string => {
    try {
      return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
      throw new CliError(`--git-diff ${ref}: git ${args.join(' ')} failed${stderr ? `: ${stderr.split('\n')[0]}` : ''}`);
    }
  };
  const top = git(['rev-parse', '--show-toplevel']).trim();
  const names = [
    ...git(['diff', '--name-only', '--diff-filter=ACMR', ref, '--']).split('\n'),
    ...git(['ls-files', '--others', '--exclude-standard'])
      .split('\n')
      .map((f) => path.relative(top, path.resolve(cwd, f))),
  ];
  return new Set(names.filter(Boolean).map((f) => path.resolve(top, f)));
}

/**
 * Expands the command line's files, directories (every `.sql` below) and globs into a sorted
 * list of files, without the excluded paths. A path that matches nothing is a usage error, as
 * a typo in CI must not pass silently.
 */
export function collectFiles(args: readonly string[], options: CollectOptions): string[] {
  const { cwd } = options;
  const found = new Set<string>();
  const inputs = args.length > 0 ? args : options.gitDiff ? ['.'] : [];
  for (const arg of inputs) {
    const abs = path.resolve(cwd, arg);
    if (existsSync(abs) && statSync(abs).isDirectory()) {
      for (const f of globSync('**/*.sql', { cwd: abs, absolute: true, dot: false, ignore: ['**/node_modules/**', '**/.git/**'] })) found.add(path.resolve(f));
    } else if (existsSync(abs)) {
      found.add(abs);
    } else if (isDynamicPattern(arg)) {
      const matches = globSync(toPosix(arg), { cwd, absolute: true, ignore: ['**/node_modules/**'] });
      if (matches.length === 0) throw new CliError(`no file matches ${arg}`);
      for (const f of matches) found.add(path.resolve(f));
    } else {
      throw new CliError(`no such file or directory: ${arg}`);
    }
  }
  const matchers = options.excluded.map(({ root, pattern }) => ({ root, test: picomatch(pattern, { dot: true }) }));
  const excluded = (file: string): boolean =>
    matchers.some(({ root, test }) => {
      const rel = toPosix(path.relative(root, file));
      // squawk matches the pattern against the path as given and against the file name.
      return test(rel) || test(path.basename(file)) || test(toPosix(path.relative(cwd, file)));
    });
  let files = [...found].filter((f) => !excluded(f));
  if (options.gitDiff) {
    const changed = changedFiles(cwd, options.gitDiff);
    files = files.filter((f) => changed.has(f));
  }
  return files.sort();
}
