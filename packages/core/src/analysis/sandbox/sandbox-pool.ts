import type { PGlite } from '@electric-sql/pglite';
import { cachedPgliteImage, createPgliteFromTemplate } from '../../store/pglite-template';
import { captureDataDir, type DataDirImage, startFromImage } from '../../store/pglite-data-dir-image';

/**
 * The prepared template's data directory without the template0 and template1 databases, built
 * once per cache directory (and kept there for every later thread and process). A sandbox never
 * creates a database (CREATE DATABASE is skipped), and the two templates were two thirds of the
 * files every instance had to load.
 */
export function sandboxBaseImage(): Promise<DataDirImage> {
  return cachedPgliteImage('sandbox-base', async () => {
    const db = await createPgliteFromTemplate();
    try {
      for (const sql of [
        'ALTER DATABASE template1 IS_TEMPLATE false',
        'DROP DATABASE template1',
        'ALTER DATABASE template0 IS_TEMPLATE false',
        'DROP DATABASE template0',
        'CHECKPOINT',
      ])
        await db.exec(sql);
      return captureDataDir(db);
    } finally {
      await db.close();
    }
  });
}

let spare: { image: DataDirImage | undefined; db: Promise<PGlite> } | undefined;
let pending: NodeJS.Timeout | undefined;

/**
 * How long the process must stay without a new sandbox run before the spare starts. PGlite runs
 * on this thread, so a spare started while analyses follow each other only competes with them.
 */
const SPARE_DELAY_MS = 200;

const start = async (image: DataDirImage | undefined): Promise<PGlite> => {
  if (image) return startFromImage(image);
  let b: DataDirImage;
  try {
    b = await sandboxBaseImage();
  } catch {
    return createPgliteFromTemplate();
  }
  return startFromImage(b);
};

const discard = (s: typeof spare): void => {
  if (s) void s.db.then((d) => d.close()).catch(() => undefined);
};

/**
 * A fresh, never-used PGlite for one sandbox run, started from `image` (a cached schema clone)
 * or, without one, from the empty base. Each instance serves exactly one analysis and is closed
 * by it; the spare is used only when it was started from the very same image.
 */
export async function takeSandboxDatabase(image?: DataDirImage): Promise<PGlite> {
  clearTimeout(pending);
  pending = undefined;
  const s = spare;
  spare = undefined;
  if (s && s.image === image) {
    try {
      return await s.db;
    } catch {
      // a failed spare: start one below
    }
  } else discard(s);
  return start(image);
}

/**
 * Starts, once the process has been idle for a moment, the instance the next analysis most
 * likely needs: the same snapshot again, as users iterate on a migration. Replaces an earlier
 * spare started from another image.
 */
export function prepareSandboxSpare(image?: DataDirImage): void {
  clearTimeout(pending);
  if (spare && spare.image === image) return;
  pending = setTimeout(() => {
    pending = undefined;
    discard(spare);
    const db = start(image);
    db.catch(() => undefined); // a failed spare is retried by the next take
    spare = { image, db };
  }, SPARE_DELAY_MS);
  pending.unref(); // never keeps a finished process alive
}

/** Closes the prepared spare (tests and short-lived processes). */
export async function closeSandboxSpare(): Promise<void> {
  clearTimeout(pending);
  pending = undefined;
  const s = spare;
  spare = undefined;
  if (s) await (await s.db.catch(() => undefined))?.close();
}
