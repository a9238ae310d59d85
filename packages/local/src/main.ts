import { ensureConsoleBuilt } from '@dbops/web/build';
import { startLocalRuntime } from './runtime';

/** `npm start`: the whole service on this machine, and the web console (built first if missing or stale). */
const { built } = await ensureConsoleBuilt();
if (built) process.stdout.write('Built the web console (packages/web/dist).\n');
const runtime = await startLocalRuntime();
const token = await runtime.issuer.sign('local-user');

process.stdout.write(`
dbops is running.

  Console:   ${runtime.origin}/  (sign in with the JWT below or an API key)
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
