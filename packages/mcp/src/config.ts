/** Settings of the stdio server, from flags or the environment. */
export interface StdioConfig {
  /** Origin of the dbops API (`--base-url`, `DBOPS_BASE_URL`); a trailing `/api/v1` is accepted. Default http://127.0.0.1:4000. */
  baseUrl: string;
  /** The caller's API key (`--api-key`, `DBOPS_API_KEY`); required. */
  apiKey: string;
  /** Offer only the read-only tools (`--read-only`, `DBOPS_MCP_READ_ONLY=true`). */
  readOnly: boolean;
}

/** Reads `--base-url`/`--api-key` (also `--flag=value`), falling back to the environment. */
export function loadStdioConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): StdioConfig {
  const flag = (name: string): string | undefined => {
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === `--${name}`) return argv[i + 1];
      if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
    }
    return undefined;
  };
  const apiKey = flag('api-key') ?? env.DBOPS_API_KEY;
  if (!apiKey) throw new Error('dbops-mcp needs an API key: --api-key <key> or DBOPS_API_KEY');
  const raw = flag('base-url') ?? env.DBOPS_BASE_URL ?? 'http://127.0.0.1:4000';
  const baseUrl = raw.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  const readOnly = argv.includes('--read-only') || env.DBOPS_MCP_READ_ONLY === 'true';
  return { baseUrl, apiKey, readOnly };
}
