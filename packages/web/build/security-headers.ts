/**
 * Response headers of the console's files, locally (packages/local/src/static) and on
 * CloudFront (infra/console.ts). The console needs no inline script (Vite emits module files),
 * sets styles only through the CSSOM (which CSP allows), and talks to its API and, in the cloud,
 * to the upload bucket its document slots point at: `connectOrigins` lists those origins.
 */
export function consoleSecurityHeaders(connectOrigins: readonly string[] = []): Record<string, string> {
  const connect = ["'self'", ...connectOrigins].join(' ');
  return {
    'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${connect}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

/** The same headers as a CloudFront Functions viewer-response snippet. */
export function viewerResponseInjection(connectOrigins: readonly string[]): string {
  return Object.entries(consoleSecurityHeaders(connectOrigins))
    .map(([name, value]) => `event.response.headers[${JSON.stringify(name)}] = { value: ${JSON.stringify(value)} };`)
    .join('\n');
}
