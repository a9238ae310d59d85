import { readFileSync } from 'node:fs';

// The bundle (build/build.ts) defines this; from sources the package.json says it.
declare const __DBOPS_CLI_VERSION__: string | undefined;

export const VERSION: string =
  typeof __DBOPS_CLI_VERSION__ === 'string'
    ? __DBOPS_CLI_VERSION__
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
