import { ensureConsoleBuilt } from './ensure-built';

/** `npm run build:console`: builds the console into packages/web/dist (always, unlike `npm start`). */
const { dir } = await ensureConsoleBuilt({ force: true });
process.stdout.write(`console built into ${dir}\n`);
