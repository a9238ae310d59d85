import { CliError, EXIT_ERROR } from './cli-error';
import type { RunContext } from './run-context';

/** A command's exit code, with its failures printed as the CLI prints them (exit 2). */
export async function guarded(ctx: RunContext, command: () => Promise<number>): Promise<number> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof CliError) {
      ctx.stderr(`dbops: ${error.message}\n`);
      return EXIT_ERROR;
    }
    // An unexpected failure is still a failure to run, not a finding.
    ctx.stderr(`dbops: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT_ERROR;
  }
}

/** The real process's surroundings. */
export const processContext = (): RunContext => ({
  cwd: process.cwd(),
  env: process.env,
  isTty: !!process.stdout.isTTY,
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
});
