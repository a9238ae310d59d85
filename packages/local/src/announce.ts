import type { LocalIssuer } from './local-issuer';

/** What both start commands announce: where the service answers, and how it signs users in. */
export interface AnnouncedRuntime {
  origin: string;
  baseUrl: string;
  issuer: LocalIssuer;
  close(): Promise<void>;
}

/**
 * The banner of `npm start` and `npm run start:cloud` (one text, so the two shapes keep the same
 * contract: tests and users wait for "dbops is running"), with a JWT for the local user; then
 * Ctrl-C or SIGTERM closes the runtime and exits.
 */
export async function announceAndServe(runtime: AnnouncedRuntime, heading: string, rows: ReadonlyArray<readonly [string, string]> = []): Promise<void> {
  const token = await runtime.issuer.sign('local-user');
  const table = [
    ['Console', `${runtime.origin}/  (sign in with the JWT below or an API key)`],
    ['Base URL', runtime.baseUrl],
    ['Health', `${runtime.baseUrl}/health`],
    ...rows,
  ]
    .map(([label, value]) => `  ${`${label}:`.padEnd(11)}${value}`)
    .join('\n');
  process.stdout.write(`
${heading}

${table}

A JWT for the local user "local-user" (valid 24 h; more with: npm run -s token -- --user <name>):

  ${token}

Try:
  curl -s -X POST ${runtime.baseUrl}/api-keys -H "Authorization: Bearer <JWT>" -H 'content-type: application/json' -d '{"name":"my key"}'

`);
  const stop = async (): Promise<void> => {
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
