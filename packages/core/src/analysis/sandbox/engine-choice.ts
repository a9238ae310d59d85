import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import type { SandboxResult } from '../types';
import { findPgBinaries, type PgBinaries } from './embedded/pg-binaries';
import { extensionsPgliteLacks } from './server-sandbox';

/** PGlite's PostgreSQL major version. */
export const PGLITE_MAJOR = 17;

/** Where a sandbox run goes, and a note for `validation_results` when the engine is not the target's version. */
export type EngineChoice = { kind: 'pglite'; note?: string } | { kind: 'embedded'; binaries: PgBinaries; note?: string };

/** The target's major version from the snapshot (`server_version_num`; 17 when a hand-built snapshot lacks it). */
export const targetMajor = (snapshot: SchemaSnapshot): number =>
  snapshot.server_version_num ? Math.floor(snapshot.server_version_num / 10_000) : PGLITE_MAJOR;

/**
 * The engine of a run. PGlite (in-process, fastest, PostgreSQL 17) only where it is exact: the
 * target runs 17 and uses no extension PGlite lacks. Otherwise a private PostgreSQL of the
 * target's major version, with its contrib extensions. Without binaries of that version here,
 * PGlite with a note saying the version differs.
 */
export function chooseEngine(snapshot: SchemaSnapshot, choice: 'auto' | 'pglite' | 'embedded'): EngineChoice {
  const major = targetMajor(snapshot);
  if (choice === 'pglite') return { kind: 'pglite' };
  if (choice === 'auto' && major === PGLITE_MAJOR && extensionsPgliteLacks(snapshot).length === 0) return { kind: 'pglite' };
  const binaries = findPgBinaries(major);
  if (binaries) return { kind: 'embedded', binaries };
  return {
    kind: 'pglite',
    note: `The target runs PostgreSQL ${major}; no PostgreSQL ${major} binaries are installed here, so the sandbox ran on PostgreSQL ${PGLITE_MAJOR} (PGlite), which may accept syntax ${major} rejects or the reverse`,
  };
}

/** Adds the engine note (a passing check: it informs, it does not refuse). */
export const withEngineNote = (r: SandboxResult, note: string | undefined): SandboxResult =>
  note ? { ...r, validation_results: [...r.validation_results, { check: 'engine_version', passed: true, detail: note }] } : r;
