/** Field names whose values are secrets wherever they appear. */
const SECRET_KEY = /pass(word|wd)?|secret|token|api[_-]?key|connection[_-]?string|authorization|credential|private[_-]?key|signature/i;

const MASK = '***';
const MAX_DEPTH = 32;

/** A password in a URL (`scheme://user:password@host`), an API key, a JWT. */
const SECRET_TEXT: Array<[RegExp, string]> = [
  [/([a-z][a-z0-9+.-]*:\/\/[^\s/:@'"]*:)[^\s@'"]*@/gi, `$1${MASK}@`],
  [/\bdbo_[A-Za-z0-9_-]{8,}/g, `dbo_${MASK}`],
  [/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g, MASK],
  [/\b(sk|rk|whsec)_(live|test)?_?[A-Za-z0-9]{8,}/g, MASK],
];

const maskText = (text: string): string => SECRET_TEXT.reduce((t, [re, by]) => t.replace(re, by), text);

/**
 * A copy of `value` safe to echo in a validation error: values under secret-looking names are
 * masked whatever their type, and passwords in connection strings, API keys and tokens are
 * masked inside any string. A request body sent as an array or with a field missing is still
 * echoed in `input`, so this runs on every `input` and `ctx` the service answers.
 */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v !== null && v !== undefined ? MASK : maskSecrets(v, depth + 1);
  return out;
}
