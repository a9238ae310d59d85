import { CliError, EXIT_ERROR } from './cli-error';
import { guarded, processContext } from './guarded';
import type { RunContext } from './run-context';

const HELP = `dbops: PostgreSQL migrations checked before they run.

Usage: dbops <command> [options]

Commands:
  lint <files|dirs|globs>       lint migrations offline (no service, database or account)
  analyze <files> --connection  analyze against the live schema through the dbops service
  apply <file> --connection     execute an analyzed migration and follow it to the end
  status <request_id>           show a migration request
  connections                   list your connections
  documents upload <files>      upload business documents through upload slots
  login                         store an API key (read from stdin) in ~/.config/dbops/credentials

dbops <command> --help for its options. Exit codes: 0 clean, 1 findings at or above
--fail-on (or a failed migration), 2 usage or connection errors.
`;

function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (c) => (data += c));
    process.stdin.on('end', () => resolve(data));
    process.stdin.on('error', reject);
  });
}

/** Runs one command and returns its exit code; each command is loaded only when it runs. */
export function run(argv: string[], ctx: RunContext): Promise<number> {
  const [command, ...rest] = argv;
  return guarded(ctx, async () => {
    switch (command) {
      case 'lint':
        // The parser's WebAssembly compiles on V8's background threads while the lint command's
        // own modules load and compile (about 20 ms of a run; docs/benchmarks.md, issue #34).
        void import('./lint/load-parser').then((m) => m.loadParser());
        return await (await import('./commands/lint')).lintCommand(rest, ctx);
      case 'analyze':
        return await (await import('./commands/analyze')).analyzeCommand(rest, ctx);
      case 'apply':
        return await (await import('./commands/apply')).applyCommand(rest, ctx);
      case 'status':
        return await (await import('./commands/status')).statusCommand(rest, ctx);
      case 'connections':
        return await (await import('./commands/connections')).connectionsCommand(rest, ctx);
      case 'documents':
        return await (await import('./commands/documents')).documentsCommand(rest, ctx);
      case 'login':
        return await (await import('./commands/login')).loginCommand(rest, ctx, readStdin);
      case '--version':
      case '-V':
        ctx.stdout(`${(await import('./version')).VERSION}\n`);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        ctx.stdout(HELP);
        return command === undefined ? EXIT_ERROR : 0;
      default:
        throw new CliError(`unknown command ${command}\n\n${HELP}`);
    }
  });
}

/** The bin's entry: real process surroundings, and the exit code once output has drained. */
export async function main(): Promise<void> {
  process.exitCode = await run(process.argv.slice(2), processContext());
}
