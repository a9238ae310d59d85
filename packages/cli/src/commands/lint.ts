import { CliError } from '../cli-error';
import { loadConfig } from '../config/cli-config';
import { dbopsRuleIds } from '../config/rule-names';
import { collectFiles } from '../lint/collect-files';
import { lintFiles } from '../lint/lint-files';
import { loadParser } from '../lint/load-parser';
import { OUTPUT_OPTIONS, failOnOf, parse, reporterOf } from '../options';
import { emit, outputOptions } from '../output';
import { ruleCatalog } from '../rule-catalog';
import type { RunContext } from '../run-context';
import { VERSION } from '../version';

export const LINT_OPTIONS = {
  ...OUTPUT_OPTIONS,
  exclude: { type: 'string', short: 'e', multiple: true },
  'exclude-path': { type: 'string', multiple: true },
  'pg-version': { type: 'string' },
  'assume-in-transaction': { type: 'boolean' },
  'git-diff': { type: 'string' },
} as const;

export const LINT_HELP = `Usage: dbops lint [options] <files|dirs|globs>...

Lints PostgreSQL migrations offline: no service, database or account.

Options:
  -r, --reporter <name>       tty, gcc, json, sarif, gitlab, github, markdown
                              (default: github under GITHUB_ACTIONS, else tty)
  -o, --output <file>         write the report to a file instead of stdout
      --markdown-file <file>  also write the markdown report (for a pull-request comment)
      --fail-on <severity>    exit 1 on findings at or above: error (default), warning, info, none
  -e, --exclude <rules>       rules to leave out (comma-separated; squawk names accepted)
      --exclude-path <glob>   files to leave out (repeatable)
      --pg-version <n>        PostgreSQL version the migrations target (default 17)
      --assume-in-transaction the migration tool runs each file in a transaction
      --git-diff <ref>        only files changed against <ref> (e.g. origin/main)
  -c, --config <file>         a .squawk.toml (default: nearest .squawk.toml)
      --dbops-config <file>   a dbops.toml (default: nearest dbops.toml or package.json "dbops")
      --no-color              plain tty output

Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or connection errors.
`;

export async function lintCommand(argv: string[], ctx: RunContext): Promise<number> {
  const { values, positionals } = parse(argv, LINT_OPTIONS);
  if (values.help) {
    ctx.stdout(LINT_HELP);
    return 0;
  }
  // The parser's WebAssembly compiles on V8's background threads while this thread reads the
  // configuration and expands the globs.
  loadParser();
  const cfg = loadConfig(ctx.cwd, { squawk: values.config, dbops: values['dbops-config'] });
  const reporter = reporterOf(values, ctx.env);
  const failOn = failOnOf(values['fail-on'], cfg.failOn);
  for (const list of values.exclude ?? []) for (const r of list.split(',')) if (r.trim()) for (const id of dbopsRuleIds(r)) cfg.excludedRules.add(id);
  for (const pattern of values['exclude-path'] ?? []) cfg.excludedPaths.push({ root: ctx.cwd, pattern });
  let pgVersion = cfg.pgVersion;
  if (values['pg-version'] !== undefined) {
    const m = /^(\d+)/.exec(values['pg-version']);
    if (!m) throw new CliError('--pg-version must look like 16 or 13.0');
    pgVersion = Number(m[1]);
  }
  if (positionals.length === 0 && !values['git-diff']) throw new CliError(`no files given\n\n${LINT_HELP}`);
  const files = await collectFiles(positionals, { cwd: ctx.cwd, excluded: cfg.excludedPaths, gitDiff: values['git-diff'] });
  const reports = await lintFiles(files, {
    cwd: ctx.cwd,
    pgVersion,
    assumeInTransaction: values['assume-in-transaction'] ?? cfg.assumeInTransaction,
    excludedRules: cfg.excludedRules,
  });
  return emit({ command: 'lint', files: reports, version: VERSION, rules: ruleCatalog() }, failOn, outputOptions(reporter, values, ctx));
}
