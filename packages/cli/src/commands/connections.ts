import { EXIT_CLEAN } from '../cli-error';
import { loadConfig } from '../config/cli-config';
import { parse, SERVICE_OPTIONS } from '../options';
import type { RunContext } from '../run-context';
import { serviceClient } from '../service/service-settings';

export async function connectionsCommand(argv: string[], ctx: RunContext): Promise<number> {
  const { values } = parse(argv, { 'base-url': SERVICE_OPTIONS['base-url'], json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const);
  if (values.help) {
    ctx.stdout('Usage: dbops connections [--json] [--base-url <url>]\n\nLists your connections (id, name, host, database).\n');
    return EXIT_CLEAN;
  }
  const list = await serviceClient(values, loadConfig(ctx.cwd), ctx.env).connections();
  if (values.json) ctx.stdout(`${JSON.stringify(list, null, 2)}\n`);
  else if (list.length === 0) ctx.stdout('No connections yet: register one with POST /api/v1/connections or in the console.\n');
  else
    ctx.stdout(
      `${list.map((c) => `${c.id}  ${c.name}  ${c.db_type}  ${c.host}:${c.port}/${c.database_name}${c.is_active ? '' : '  (inactive)'}`).join('\n')}\n`,
    );
  return EXIT_CLEAN;
}
