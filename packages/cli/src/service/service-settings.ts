import { CliError } from '../cli-error';
import type { CliConfig } from '../config/cli-config';
import { readCredentials } from './credentials';
import { ServiceClient } from './service-client';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4000';

/**
 * The service to talk to: base URL from `--base-url`, `DBOPS_BASE_URL`, the config, the
 * credentials file, then the local default; API key from `DBOPS_API_KEY`, else the credentials
 * file `dbops login` wrote (never from a flag, which other users could read in `ps`).
 */
export function serviceClient(flags: { 'base-url'?: string }, cfg: CliConfig, env: NodeJS.ProcessEnv): ServiceClient {
  const creds = env.DBOPS_API_KEY ? undefined : readCredentials(env);
  const apiKey = env.DBOPS_API_KEY || creds?.api_key;
  if (!apiKey) throw new CliError('no API key: set DBOPS_API_KEY or run dbops login');
  const baseUrl = flags['base-url'] ?? env.DBOPS_BASE_URL ?? cfg.baseUrl ?? readCredentials(env)?.base_url ?? DEFAULT_BASE_URL;
  if (!/^https?:\/\//.test(baseUrl)) throw new CliError(`base URL must start with http:// or https://: ${baseUrl}`);
  return new ServiceClient({ baseUrl, apiKey });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function connectionId(flag: string | undefined, cfg: CliConfig, env: NodeJS.ProcessEnv): string {
  const id = flag ?? env.DBOPS_CONNECTION ?? cfg.connection;
  if (!id) throw new CliError('no connection: pass --connection <id> (see dbops connections), set DBOPS_CONNECTION, or set connection in dbops.toml');
  if (!UUID.test(id)) throw new CliError(`--connection must be a connection id (a UUID): ${id}`);
  return id;
}
