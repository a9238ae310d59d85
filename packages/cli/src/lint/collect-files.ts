import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CliError } from '../cli-error';
import { simpleGlob } from './simple-glob';

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
 * Expands the command line's files, directories (every `.sql` below them) and globs into a sorted
 * list of files, without the excluded paths. A path that matches nothing is a usage error, as
 * a typo in CI must not pass silently. tinyglobby and picomatch are loaded only for what
 * {@link simpleGlob} does not expand, and for excluded paths.
 */
export async function collectFiles(args: readonly string[], options: CollectOptions): Promise<string[]> {
  const { cwd } = options;
  const found = new Set<string>();
  const inputs = args.length > 0 ? args : options.gitDiff ? ['.'] : [];
  for (const arg of inputs) {
    const abs = path.resolve(cwd, arg);
    if (existsSync(abs) && statSync(abs).isDirectory()) {
      const fast = simpleGlob('**/*.sql', abs);
      if (fast) for (const f of fast) found.add(f);
      else {
        const { globSync } = await import('tinyglobby');
        for (const f of globSync('**/*.sql', { cwd: abs, absolute: true, dot: false, ignore: ['**/node_modules/**', '**/.git/**'] }))
          found.add(path.resolve(f));
      }
    } else if (existsSync(abs)) {
      found.add(abs);
    } else {
      const fast = simpleGlob(toPosix(arg), cwd);
      let matches: string[];
      if (fast) matches = fast;
      else {
        const { globSync, isDynamicPattern } = await import('tinyglobby');
        if (!isDynamicPattern(arg)) throw new CliError(`no such file or directory: ${arg}`);
        matches = globSync(toPosix(arg), { cwd, absolute: true, ignore: ['**/node_modules/**'] }).map((f) => path.resolve(f));
      }
      if (matches.length === 0) throw new CliError(`no file matches ${arg}`);
      for (const f of matches) found.add(f);
    }
  }
  let files = [...found];
  if (options.excluded.length > 0) {
    const { default: picomatch } = await import('picomatch');
    const matchers = options.excluded.map(({ root, pattern }) => ({ root, test: picomatch(pattern, { dot: true }) }));
    const excluded = (file: string): boolean =>
      matchers.some(({ root, test }) => {
        const rel = toPosix(path.relative(root, file));
        // squawk matches the pattern against the path as given and against the file name.
        return test(rel) || test(path.basename(file)) || test(toPosix(path.relative(cwd, file)));
      });
    files = files.filter((f) => !excluded(f));
  }
  if (options.gitDiff) {
    const changed = changedFiles(cwd, options.gitDiff);
    files = files.filter((f) => changed.has(f));
  }
  return files.sort();
}
