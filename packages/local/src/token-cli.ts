import { parseArgs } from 'node:util';
import { loadSettings } from '@dbops/core/config';
import { loadLocalIssuer } from './local-issuer';

/** `npm run -s token -- --user <name> [--ttl <seconds>]`: prints a JWT the local service accepts. */
const { values } = parseArgs({
  options: {
    user: { type: 'string', short: 'u', default: 'local-user' },
    ttl: { type: 'string', default: String(24 * 3600) },
  },
});
const ttl = Number(values.ttl);
if (!values.user || !Number.isInteger(ttl) || ttl <= 0) {
  process.stderr.write('usage: npm run -s token -- --user <name> [--ttl <seconds>]\n');
  process.exit(2);
}
const issuer = await loadLocalIssuer(loadSettings().home);
process.stdout.write(`${await issuer.sign(values.user, ttl)}\n`);
