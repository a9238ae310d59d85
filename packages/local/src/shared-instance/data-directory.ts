import { createHash } from 'node:crypto';
import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

const isRoot = (): boolean => process.getuid?.() === 0;

async function traversableByOthers(dir: string): Promise<boolean> {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const s = await stat(d).catch(() => undefined);
    if (s && (s.mode & 0o001) === 0) return false;
    if (d === path.dirname(d)) return true;
  }
}

/**
 * Where the embedded shared instance keeps its cluster: `<home>/shared-instance`. As root,
 * initdb and postgres run as the separate `postgres` OS user, which must be able to walk to the
 * directory: `<home>` and `<home>/shared-instance` get o+x (traverse only, no listing); when a
 * directory above `<home>` is closed to others (e.g. /root), the cluster goes to
 * /var/lib/dbops/shared-instance-<hash of home> instead.
 */
export async function sharedInstanceDirectory(home: string): Promise<string> {
  const preferred = path.join(path.resolve(home), 'shared-instance');
  await mkdir(preferred, { recursive: true, mode: 0o711 });
  if (!isRoot()) return preferred;
  if (await traversableByOthers(path.dirname(path.resolve(home)))) {
    for (const d of [path.resolve(home), preferred]) {
      const s = await stat(d);
      await chmod(d, s.mode | 0o001);
    }
    return preferred;
  }
  const fallback = `/var/lib/dbops/shared-instance-${createHash('sha256').update(path.resolve(home)).digest('hex').slice(0, 12)}`;
  await mkdir(fallback, { recursive: true, mode: 0o711 });
  await chmod('/var/lib/dbops', 0o711);
  return fallback;
}
