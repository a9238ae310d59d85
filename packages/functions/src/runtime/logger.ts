/**
 * A one-line JSON logger. Everything logged passes {@link redact}, so a connection string or
 * key that slips into an error message never reaches the logs in clear.
 */
import type { LogLevel } from '@dbops/core/config';

export type { LogLevel };

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

const SECRET_PATTERNS: Array<[RegExp, string]> = [
  // user:password@ in any URL, e.g. postgresql://app:s3cret@host/db
  [/([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]*:)[^\s]*@/gi, '$1***@'],
  [/\bdbo_[A-Za-z0-9_-]{8,}/g, 'dbo_***'],
  // Stripe secret, restricted and webhook signing keys.
  [/\b(sk|rk)_(live|test)_[A-Za-z0-9]{8,}/g, '$1_$2_***'],
  [/\bwhsec_[A-Za-z0-9]{8,}/g, 'whsec_***'],
  [/(password\s*[=:]\s*)("[^"]*"|'[^']*'|\S+)/gi, '$1***'],
  [/\bBearer\s+[A-Za-z0-9._~+/-]+=*/g, 'Bearer ***'],
];

/** Masks passwords in URLs, raw API keys, `password=...` pairs and bearer tokens. */
export function redact(text: string): string {
  return SECRET_PATTERNS.reduce((t, [re, replacement]) => t.replace(re, replacement), text);
}

let level: LogLevel = 'info';

/** Set once at start from the settings (`DBOPS_LOG_LEVEL`); `info` until then. */
export function setLogLevel(value: LogLevel): void {
  level = value;
}

const threshold = (): number => order[level];

function write(level: Exclude<LogLevel, 'silent'>, message: string, fields: Record<string, unknown> = {}): void {
  if (order[level] < threshold()) return;
  const line = redact(JSON.stringify({ level, time: new Date().toISOString(), message, ...fields }));
  process.stderr.write(`${line}\n`);
}

export const logger = {
  debug: (m: string, f?: Record<string, unknown>) => write('debug', m, f),
  info: (m: string, f?: Record<string, unknown>) => write('info', m, f),
  warn: (m: string, f?: Record<string, unknown>) => write('warn', m, f),
  error: (m: string, f?: Record<string, unknown>) => write('error', m, f),
};

/** An error as log fields, stack included (logs only; responses never carry stacks). */
export const errorFields = (error: unknown): Record<string, unknown> =>
  error instanceof Error ? { error: error.name, detail: error.message, stack: error.stack } : { error: String(error) };
