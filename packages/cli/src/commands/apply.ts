import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MigrationRequest } from '../service/service-client';
import { CliError, EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS } from '../cli-error';
import { loadConfig } from '../config/cli-config';
import { parse, SERVICE_OPTIONS } from '../options';
import type { RunContext } from '../run-context';
import { serviceClient } from '../service/service-settings';
import { loadToken } from '../service/token-store';
import { describeRequest } from './status';

export const APPLY_HELP = `Usage: dbops apply [options] <file>

Executes a migration with the approval token dbops analyze stored for this exact file, then
follows the request until it ends. Exit 0 when it completed, 1 when it failed, 2 on usage or
connection errors (or --timeout).

Options:
      --connection <id>   must match the token's connection (default: the token's)
      --base-url <url>    service URL
      --interval <ms>     polling interval (default 1000)
      --timeout <s>       stop following after this many seconds (default 1800); the migration goes on
      --json              print the final request record as JSON
`;

const FINAL = new Set(['completed', 'failed']);

export async function applyCommand(argv: string[], ctx: RunContext): Promise<number> {
  const { values, positionals } = parse(argv, {
    ...SERVICE_OPTIONS,
    config: { type: 'string', short: 'c' },
    'dbops-config': { type: 'string' },
    interval: { type: 'string' },
    timeout: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const);
  if (values.help) {
    ctx.stdout(APPLY_HELP);
    return EXIT_CLEAN;
  }
  if (positionals.length !== 1) throw new CliError(`dbops apply takes exactly one file\n\n${APPLY_HELP}`);
  const cfg = loadConfig(ctx.cwd, { squawk: values.config, dbops: values['dbops-config'] });
  const file = path.resolve(ctx.cwd, positionals[0]!);
  let sql: string;
  try {
    sql = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${positionals[0]}: ${(error as Error).message}`);
  }
  const token = loadToken(ctx.cwd, sql);
  if (!token) throw new CliError(`no approval token for ${positionals[0]} as it is now: run dbops analyze on it first (a token is bound to the exact text)`);
  const connection = values.connection ?? token.connection_id;
  if (connection !== token.connection_id) throw new CliError(`the stored token is for connection ${token.connection_id}, not ${connection}`);
  const interval = Number(values.interval ?? 1000);
  const timeout = Number(values.timeout ?? 1800) * 1000;
  if (!(interval > 0) || !(timeout > 0)) throw new CliError('--interval and --timeout must be positive numbers');
  const client = serviceClient(values, cfg, ctx.env);

  const accepted = await client.execute(connection, sql, token.approval_token);
  ctx.stderr(`request ${accepted.request_id}: ${accepted.status}\n`);
  const started = Date.now();
  let last = '';
  let record: MigrationRequest;
  const live = ctx.isTty;
  for (;;) {
    record = await client.request(accepted.request_id);
    const line = `${record.status}${record.progress ? `: ${record.progress}` : ''}`;
    if (line !== last) {
      // A terminal gets one line rewritten in place; logs get one line per change.
      ctx.stderr(live ? `\r\x1b[2K${line}` : `${line}\n`);
      last = line;
    }
    if (FINAL.has(record.status)) break;
    if (Date.now() - started > timeout) {
      if (live) ctx.stderr('\n');
      ctx.stderr(`still ${record.status} after ${timeout / 1000} s; follow it with: dbops status ${record.request_id}\n`);
      return EXIT_ERROR;
    }
    await new Promise((r) => setTimeout(r, interval));
  }
  if (live) ctx.stderr('\n');
  ctx.stdout(values.json ? `${JSON.stringify(record, null, 2)}\n` : describeRequest(record));
  return record.status === 'completed' ? EXIT_CLEAN : EXIT_FINDINGS;
}
