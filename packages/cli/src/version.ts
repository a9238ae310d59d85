import { readFileSync } from 'node:fs';

// The bundle (build/build.ts) defines this; from sources the package.json says it.
declare const DBOPS_CLI_VERSION: string | undefined;

export const VERSION: string =
  typeof DBOPS_CLI_VERSION === 'string' ? DBOPS_CLI_VERSION : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
