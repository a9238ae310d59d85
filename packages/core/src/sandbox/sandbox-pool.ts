import type { PGlite } from '@electric-sql/pglite';
import { createPgliteFromTemplate } from '../store/pglite-template';

let spare: Promise<PGlite> | undefined;

const prepare = (): Promise<PGlite> => {
  const p = createPgliteFromTemplate();
  p.catch(() => undefined); // a failed spare is retried by the next take
  return p;
};

/**
 * A fresh, never-used PGlite for one sandbox run. Starting an instance costs seconds of WASM
 * start-up, so one spare is prepared in the background after every take; each instance still
 * serves exactly one analysis and is closed by it.
 */
export async function takeSandboxDatabase(): Promise<PGlite> {
  const next = spare ?? prepare();
  spare = prepare();
  try {
    return await next;
  } catch {
    return createPgliteFromTemplate();
  }
}

/** Closes the prepared spare (tests and short-lived processes). */
export async function closeSandboxSpare(): Promise<void> {
  const s = spare;
  spare = undefined;
  if (s) await (await s.catch(() => undefined))?.close();
}
