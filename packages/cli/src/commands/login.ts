import { CliError, EXIT_CLEAN } from '../cli-error';
import { parse } from '../options';
import type { RunContext } from '../run-context';
import { writeCredentials } from '../service/credentials';
import { ServiceClient } from '../service/service-client';
import { DEFAULT_BASE_URL } from '../service/service-settings';

export const LOGIN_HELP = `Usage: dbops login [--base-url <url>] < key.txt

Reads an API key (dbo_...) from standard input (or DBOPS_API_KEY), checks it against the
service, and stores it with the base URL in ~/.config/dbops/credentials (rights 0600).
`;

export async function loginCommand(argv: string[], ctx: RunContext, readStdin: () => Promise<string>): Promise<number> {
  const { values } = parse(argv, { 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const);
  if (values.help) {
    ctx.stdout(LOGIN_HELP);
    return EXIT_CLEAN;
  }
  const apiKey = (ctx.env.DBOPS_API_KEY || (await readStdin())).trim();
  if (!apiKey) throw new CliError(`no API key on standard input\n\n${LOGIN_HELP}`);
  const baseUrl = values['base-url'] ?? ctx.env.DBOPS_BASE_URL ?? DEFAULT_BASE_URL;
  // A key the service refuses is not worth storing.
  await new ServiceClient({ baseUrl, apiKey }).connections();
  const file = writeCredentials(ctx.env, { api_key: apiKey, base_url: baseUrl });
  ctx.stdout(`Logged in to ${baseUrl}; credentials stored in ${file}\n`);
  return EXIT_CLEAN;
}
