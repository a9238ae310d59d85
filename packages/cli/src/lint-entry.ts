import { lintCommand } from './commands/lint';
import { guarded, processContext } from './guarded';
import { usePrecompiledParser } from './lint/load-parser';

/**
 * `dbops lint` on its own: the entry of `dist/lint.cjs`, the script bundle that the bin runs with
 * V8's code cache (see lint-script.ts). Does what `run(['lint', ...argv], processContext())` does,
 * on the parser's WebAssembly the entry started compiling (`parser`), if it did.
 */
export async function lintMain(argv: string[], parser?: Promise<object>): Promise<void> {
  usePrecompiledParser(parser);
  const ctx = processContext();
  process.exitCode = await guarded(ctx, () => lintCommand(argv, ctx));
}
