import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error';
import { FAIL_ON, type FailOn } from './config/cli-config';
import { REPORTERS, type ReporterName } from './report/reporters';

/** Options every command that prints findings takes. */
export const OUTPUT_OPTIONS = {
  reporter: { type: 'string', short: 'r' },
  format: { type: 'string' },
  output: { type: 'string', short: 'o' },
  'markdown-file': { type: 'string' },
  'fail-on': { type: 'string' },
  config: { type: 'string', short: 'c' },
  'dbops-config': { type: 'string' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const SERVICE_OPTIONS = {
  connection: { type: 'string' },
  'base-url': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** node:util's parseArgs with its errors turned into usage errors (exit 2). */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError((error as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
}

export function reporterOf(values: { reporter?: string; format?: string }, env: NodeJS.ProcessEnv): ReporterName {
  const name = values.reporter ?? values.format ?? (env.GITHUB_ACTIONS === 'true' ? 'github' : 'tty');
  if (!REPORTERS.includes(name as ReporterName)) throw new CliError(`unknown reporter ${name}: one of ${REPORTERS.join(', ')}`);
  return name as ReporterName;
}

export function failOnOf(flag: string | undefined, fromConfig: FailOn | undefined): FailOn {
  const v = flag ?? fromConfig ?? 'error';
  if (!FAIL_ON.includes(v as FailOn)) throw new CliError(`--fail-on must be one of ${FAIL_ON.join(', ')}`);
  return v as FailOn;
}
