import { readdirSync } from 'node:fs';
import path from 'node:path';

// The globs people pass to `dbops lint` are nearly always of one shape: a few directory names,
// maybe `**/`, then a file name or `*.sql` (`migrations/**/*.sql`, `**/up.sql`; a directory
// argument means `**/*.sql` below it). For those, one readdir per directory gives what tinyglobby
// gives (dot: false, `**/node_modules/**` ignored) without loading and compiling it and
// picomatch (about 95 kB) and without matching every path against a compiled pattern. Anything
// else, and any tree with a symbolic link in it (tinyglobby follows links by their real paths),
// is left to tinyglobby.

/** A directory or file name matched as written: no glob syntax, no leading dot. */
const LITERAL = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
/** What may follow a leading `*` in a file name (`.sql`, `_up.sql`). */
const SUFFIX = /^[A-Za-z0-9_.-]+$/;

interface SimpleShape {
  /** Literal directory names before the file part. */
  prefix: string[];
  /** `**` before the file part: every directory below the prefix (not only the prefix itself). */
  deep: boolean;
  /** The file name, or the end every file name must have after a `*`. */
  name: string;
  star: boolean;
}

/** The pattern's simple shape, or null when tinyglobby must read it. */
export function simpleShape(pattern: string): SimpleShape | null {
  const parts = pattern.split('/');
  const last = parts.pop()!;
  const deep = parts[parts.length - 1] === '**';
  if (deep) parts.pop();
  for (const p of parts) if (!LITERAL.test(p) || p === 'node_modules') return null;
  const star = last.startsWith('*');
  const name = star ? last.slice(1) : last;
  if (!(star ? SUFFIX : LITERAL).test(name) || name === 'node_modules') return null;
  // Without a `*` the pattern is not a glob at all: the caller reports the missing file.
  if (!deep && !star) return null;
  return { prefix: parts, deep, name, star };
}

const join = (dir: string, name: string): string => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/** A symbolic link was met: the walk's answer could differ from tinyglobby's. */
class SymlinkMet extends Error {}

/**
 * The files a simple-shaped pattern matches under `cwd` (absolute paths, unsorted), as tinyglobby
 * matches them with `dot: false` and `ignore: ['**\/node_modules/**']`; null when the pattern is
 * not of that shape or a symbolic link lies on the way.
 */
export function simpleGlob(pattern: string, cwd: string): string[] | null {
  const shape = simpleShape(pattern);
  // POSIX paths only: elsewhere tinyglobby's separators are the ones the rest of the CLI expects.
  if (!shape || path.sep !== '/') return null;
  const { deep, name, star } = shape;
  const out: string[] = [];
  const visit = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // as tinyglobby: a directory that cannot be read (or is missing) holds no match
    }
    for (const e of entries) {
      const n = e.name;
      if (e.isSymbolicLink()) throw new SymlinkMet();
      // `*` and `**` do not match names with a leading dot (dot: false); node_modules is ignored.
      if (n.charCodeAt(0) === 46 || n === 'node_modules') continue;
      if (e.isDirectory()) {
        if (deep) visit(join(dir, n));
      } else if (star ? n.endsWith(name) : n === name) out.push(join(dir, n));
    }
  };
  try {
    visit(path.join(cwd, ...shape.prefix));
  } catch (error) {
    if (error instanceof SymlinkMet) return null;
    throw error;
  }
  return out;
}
