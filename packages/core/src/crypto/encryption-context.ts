/**
 * Canonical bytes of an encryption context, used as AES-GCM associated data. Keys are sorted
 * so that the same context always gives the same bytes, whatever order the caller built it in.
 */
export function contextBytes(context: Readonly<Record<string, string>>): Buffer {
  const sorted = Object.keys(context)
    .sort()
    .map((k) => [k, context[k]]);
  return Buffer.from(JSON.stringify(sorted), 'utf8');
}
