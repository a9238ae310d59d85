import type { MigrationRequest } from '../service/service-client';
import { CliError, EXIT_CLEAN, EXIT_FINDINGS } from '../cli-error';
import { loadConfig } from '../config/cli-config';
import { parse, SERVICE_OPTIONS } from '../options';
import type { RunContext } from '../run-context';
import { serviceClient } from '../service/service-settings';

/** A request record for people. */
export function describeRequest(r: MigrationRequest): string {
  const out = [`request ${r.request_id}: ${r.status}${r.progress ? ` (${r.progress})` : ''}`];
  if (r.result) {
    out.push(`  took ${r.result.execution_time_ms} ms`);
    if (r.result.tables_added.length > 0) out.push(`  tables added: ${r.result.tables_added.join(', ')}`);
    if (r.result.tables_removed.length > 0) out.push(`  tables removed: ${r.result.tables_removed.join(', ')}`);
    for (const c of r.result.columns_added) out.push(`  column added: ${c.table}.${c.column} ${c.type}`);
  }
  if (r.error) out.push(`  error: ${typeof r.error === 'object' ? JSON.stringify(r.error) : String(r.error)}`);
  return `${out.join('\n')}\n`;
}

export async function statusCommand(argv: string[], ctx: RunContext): Promise<number> {
  const { values, positionals } = parse(argv, {
    'base-url': SERVICE_OPTIONS['base-url'],
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const);
  if (values.help) {
    ctx.stdout('Usage: dbops status [--json] [--base-url <url>] <request_id>\n\nExit 0 unless the request failed (1).\n');
    return EXIT_CLEAN;
  }
  if (positionals.length !== 1) throw new CliError('Usage: dbops status <request_id>');
  const client = serviceClient(values, loadConfig(ctx.cwd), ctx.env);
  const record = await client.request(positionals[0]!);
  ctx.stdout(values.json ? `${JSON.stringify(record, null, 2)}\n` : describeRequest(record));
  return record.status === 'failed' ? EXIT_FINDINGS : EXIT_CLEAN;
}
