import { startLocalRuntime } from './runtime';

/** `npm start`: the whole service on this machine. */
const runtime = await startLocalRuntime();
const token = await runtime.issuer.sign('local-user');

process.stdout.write(`
dbops is running.

  Base URL:  ${runtime.baseUrl}
  Health:    ${runtime.baseUrl}/health
  State:     ${runtime.home}

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
