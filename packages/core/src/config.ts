import path from 'node:path';

/** Settings every part of the service reads. Built once per process from the environment. */
export interface ServiceSettings {
  /** `local`: embedded runtime on one machine; `cloud`: Lambda behind API Gateway. */
  mode: 'local' | 'cloud';
  /** Directory for embedded state, key files and the local JWT issuer. `DBOPS_HOME`, default `./.dbops`. */
  home: string;
  /** State database on a server (`DBOPS_DATABASE_URL`); unset means embedded PGlite under `home`. */
  databaseUrl: string | undefined;
  /** Requests per user per window (`DBOPS_RATE_LIMIT`, default 600). */
  rateLimit: number;
  /** Window of the rate limit in seconds (`DBOPS_RATE_LIMIT_WINDOW_SECONDS`, default 60). */
  rateLimitWindowSeconds: number;
  /** The raw environment, for feature modules that read their own settings. */
  env: Readonly<Record<string, string | undefined>>;
}

const positiveInt = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
};

/** Reads {@link ServiceSettings} from an environment (defaults documented in docs/configuration.md). */
export function loadSettings(env: Readonly<Record<string, string | undefined>> = process.env): ServiceSettings {
  return {
    mode: env.DBOPS_MODE === 'cloud' ? 'cloud' : 'local',
    home: path.resolve(env.DBOPS_HOME ?? '.dbops'),
    databaseUrl: env.DBOPS_DATABASE_URL || undefined,
    rateLimit: positiveInt(env.DBOPS_RATE_LIMIT, 600, 'DBOPS_RATE_LIMIT'),
    rateLimitWindowSeconds: positiveInt(env.DBOPS_RATE_LIMIT_WINDOW_SECONDS, 60, 'DBOPS_RATE_LIMIT_WINDOW_SECONDS'),
    env,
  };
}
