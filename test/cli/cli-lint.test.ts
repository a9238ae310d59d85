import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv from 'ajv-draft-04';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestCli, CLI_PACKAGE, project, runCli } from '../support/cli';

// Own fixtures: a clean file, one with an error finding, one with only a warning.
const FILES = {
  'migrations/001_create_account.sql': 'CREATE TABLE IF NOT EXISTS account (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, email text NOT NULL);\n',
  'migrations/002_link_orders.sql':
    "SET lock_timeout = '1s';\nSET statement_timeout = '5s';\n\n-- link orders to accounts\nALTER TABLE orders ADD COLUMN account_id bigint REFERENCES account (id);\n",
  'migrations/003_notes.sql':
    "SET lock_timeout = '1s';\nSET statement_timeout = '5s';\nCREATE TABLE IF NOT EXISTS note (id bigint PRIMARY KEY, created_at timestamp);\n",
};

describe('dbops lint (a real process on real files)', () => {
  let cli: Awaited<ReturnType<typeof buildTestCli>>;
  let p: ReturnType<typeof project>;
  const lint = (args: string[], env: Record<string, string> = {}, cwd = p.dir) => runCli(cli.entry, ['lint', ...args], { cwd, env });

  beforeAll(async () => {
    cli = await buildTestCli();
    p = project(FILES);
  });

  afterAll(() => {
    cli?.remove();
    p?.remove();
  });

  it('exits 0 on a clean file and 1 on an error finding, printing excerpt, rule, reason and safer alternative', async () => {
    const clean = await lint(['migrations/001_create_account.sql']);
    expect(clean).toMatchObject({ code: 0 });
    expect(clean.stdout).toContain('No issues found (1 file checked).');

    const r = await lint(['migrations']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'migrations/002_link_orders.sql:5:1: error[adding-foreign-key-constraint] The foreign key takes SHARE ROW EXCLUSIVE on public.orders and public.account',
    );
    expect(r.stdout).toContain('  5 | ALTER TABLE orders ADD COLUMN account_id bigint REFERENCES account (id)\n');
    expect(r.stdout).toContain('  safer: ADD COLUMN without REFERENCES, then ADD CONSTRAINT ... FOREIGN KEY ... NOT VALID');
    expect(r.stdout).toContain('docs: docs/rules/adding-foreign-key-constraint.md');
    expect(r.stdout).toMatch(/1 error, \d+ warnings? in 2 files \(3 files checked\)\./);
  });

  it('--fail-on decides which severities fail the run', async () => {
    expect((await lint(['migrations/003_notes.sql'])).code).toBe(0);
    const warn = await lint(['--fail-on', 'warning', 'migrations/003_notes.sql']);
    expect(warn.code).toBe(1);
    expect(warn.stdout).toContain('warning[prefer-timestamptz]');
    expect((await lint(['--fail-on', 'none', 'migrations'])).code).toBe(0);
  });

  it('exits 2 on usage errors, naming the problem', async () => {
    for (const [args, message] of [
      [[], 'no files given'],
      [['missing.sql'], 'no such file or directory: missing.sql'],
      [['nothing/**/*.sql'], 'no file matches nothing/**/*.sql'],
      [['-r', 'xml', 'migrations'], 'unknown reporter xml'],
      [['--fail-on', 'fatal', 'migrations'], '--fail-on must be one of'],
      [['--frobnicate', 'migrations'], "Unknown option '--frobnicate'"],
    ] as const) {
      const r = await lint([...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect((await runCli(cli.entry, ['frobnicate'], { cwd: p.dir })).code).toBe(2);
  });

  it('gcc: one file:line:column: severity: message [rule] line per finding', async () => {
    const r = await lint(['-r', 'gcc', 'migrations']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    for (const l of lines) expect(l).toMatch(/^migrations\/\d{3}_[a-z_]+\.sql:\d+:\d+: (error|warning|note): .+ \[[a-z-]+\]$/);
    expect(lines).toContainEqual(expect.stringMatching(/^migrations\/002_link_orders\.sql:5:1: error: The foreign key .* \[adding-foreign-key-constraint\]$/));
  });

  it('json: every file with its structured findings and totals', async () => {
    const r = await lint(['-r', 'json', 'migrations']);
    const doc = JSON.parse(r.stdout);
    expect(doc.files.map((f: { file: string }) => f.file)).toEqual([
      'migrations/001_create_account.sql',
      'migrations/002_link_orders.sql',
      'migrations/003_notes.sql',
    ]);
    expect(doc.files[1].findings).toContainEqual(
      expect.objectContaining({
        rule: 'adding-foreign-key-constraint',
        severity: 'error',
        statement_index: 2,
        line: 5,
        column: 1,
        safer: expect.stringContaining('NOT VALID'),
        statement: expect.stringMatching(/^ALTER TABLE orders/),
      }),
    );
    expect(doc.summary).toMatchObject({ errors: 1, files: 3 });
  });

  it('sarif: valid SARIF 2.1.0 (checked against the OASIS schema), one result per finding', async () => {
    const r = await lint(['-r', 'sarif', 'migrations']);
    const log = JSON.parse(r.stdout);
    const require = createRequire(import.meta.url);
    const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json', { paths: [CLI_PACKAGE] }), 'utf8'));
    // unicodeRegExp off: the schema's language-tag pattern is not valid with the u flag (an erratum of rtm.5).
    const validate = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }).compile(schema);
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    const json = JSON.parse((await lint(['-r', 'json', 'migrations'])).stdout);
    const count = json.files.reduce((n: number, f: { findings: unknown[] }) => n + f.findings.length, 0);
    expect(log.runs[0].results).toHaveLength(count);
    const fk = log.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'adding-foreign-key-constraint');
    expect(fk).toMatchObject({
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'migrations/002_link_orders.sql' }, region: { startLine: 5, startColumn: 1 } } }],
    });
    expect(log.runs[0].tool.driver.rules[fk.ruleIndex].id).toBe('adding-foreign-key-constraint');
    // The validator is not vacuous: a broken log fails it.
    expect(validate({ version: '2.1.0', runs: [{ results: [] }] })).toBe(false);
  });

  it('gitlab: Code Quality issues with stable, distinct fingerprints', async () => {
    const issues = JSON.parse((await lint(['-r', 'gitlab', 'migrations'])).stdout);
    expect(issues).toContainEqual(
      expect.objectContaining({
        check_name: 'adding-foreign-key-constraint',
        severity: 'major',
        location: { path: 'migrations/002_link_orders.sql', lines: { begin: 5, end: 5 } },
      }),
    );
    const prints = issues.map((i: { fingerprint: string }) => i.fingerprint);
    expect(new Set(prints).size).toBe(prints.length);
    expect(JSON.parse((await lint(['-r', 'gitlab', 'migrations'])).stdout).map((i: { fingerprint: string }) => i.fingerprint)).toEqual(prints);
  });

  it('github: annotations by default under GITHUB_ACTIONS, and a markdown summary appended to GITHUB_STEP_SUMMARY', async () => {
    const summary = path.join(p.dir, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = await lint(['migrations'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^::error file=migrations\/002_link_orders\.sql,line=5,endLine=5,col=1,title=dbops adding-foreign-key-constraint::The foreign key .*%0ASafer: ADD COLUMN without REFERENCES/m,
    );
    expect(r.stdout).toMatch(/^::warning file=migrations\/003_notes\.sql,line=3,/m);
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n<!-- dbops-report -->\n### dbops lint')).toBe(true);
    expect(md).toContain('**adding-foreign-key-constraint** (line 5)');
  });

  it('markdown: a pull-request comment with a marker, findings and statements', async () => {
    const r = await lint(['-r', 'markdown', 'migrations']);
    expect(r.stdout.split('\n')[0]).toBe('<!-- dbops-report -->');
    expect(r.stdout).toContain('#### `migrations/002_link_orders.sql`');
    expect(r.stdout).toContain('  - Safer: ADD COLUMN without REFERENCES');
    expect(r.stdout).toContain('  ALTER TABLE orders ADD COLUMN account_id bigint REFERENCES account (id)\n');
  });

  it('--output writes the report to a file', async () => {
    const r = await lint(['-r', 'json', '-o', 'report.json', 'migrations']);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(path.join(p.dir, 'report.json'), 'utf8')).summary.errors).toBe(1);
  });

  it('reports a syntax error in place as squawk does (syntax-error), exit 1', async () => {
    const q = project({ 'bad.sql': "SET lock_timeout = '1s';\nALTER TABLE t ADD COLUM x int;\n" });
    try {
      const r = await runCli(cli.entry, ['lint', '-r', 'gcc', 'bad.sql'], { cwd: q.dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^bad\.sql:2:1: error: syntax error at or near "\w+" \[syntax-error\]$/m);
    } finally {
      q.remove();
    }
  });

  it("runs from the script bundle, whose code cache (stored by the build) V8 takes under the CLI's flags", () => {
    const dist = path.dirname(cli.entry);
    // What entry.ts does before it loads the script bundle: the same V8 flags, then loadLintScript.
    const code = [
      "import { setFlagsFromString } from 'node:v8';",
      "setFlagsFromString('--liftoff-only');",
      "setFlagsFromString('--max-opt=1');",
      `const { loadLintScript } = await import(${JSON.stringify(path.join(CLI_PACKAGE, 'src/lint-script.ts'))});`,
      `const s = loadLintScript(${JSON.stringify(path.join(dist, 'lint.cjs'))}, ${JSON.stringify(path.join(dist, 'lint.cache'))});`,
      'console.log(JSON.stringify({ cacheUsed: s.cacheUsed, lintMain: typeof s.lintMain }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', code], { cwd: CLI_PACKAGE, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ cacheUsed: true, lintMain: 'function' });
  });
});

describe("dbops lint with squawk users' files", () => {
  let cli: Awaited<ReturnType<typeof buildTestCli>>;
  beforeAll(async () => {
    cli = await buildTestCli();
  });
  afterAll(() => cli?.remove());

  const rulesOf = async (dir: string, args: string[]): Promise<string[]> => {
    const r = await runCli(cli.entry, ['lint', '-r', 'json', '--fail-on', 'none', ...args], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout).files as { file: string; findings: { rule: string }[] }[]).flatMap((f) => f.findings.map((x) => `${f.file}:${x.rule}`));
  };

  it('honours -- squawk-ignore <rule> (squawk names mapped), -- squawk-ignore-file and dbops-ignore', async () => {
    const q = project({
      'a.sql':
        "SET lock_timeout = '1s';\nSET statement_timeout = '1s';\n-- squawk-ignore adding-foreign-key-constraint\nALTER TABLE o ADD COLUMN a_id bigint REFERENCES a (id);\nALTER TABLE o ADD COLUMN b_id bigint REFERENCES b (id);\n",
      'b.sql':
        "SET lock_timeout = '1s';\nSET statement_timeout = '1s';\nCREATE TABLE t (at timestamp); -- squawk-ignore prefer-timestamp-tz\n\nCREATE TABLE u (at timestamp);\n",
      'c.sql': '-- squawk-ignore-file\nDROP TABLE orders;\n',
      'd.sql': '/* squawk-ignore-file ban-drop-table */\nDROP TABLE orders;\n',
      'e.sql':
        "SET lock_timeout = '1s';\nSET statement_timeout = '1s';\n-- dbops-ignore fk-without-index, adding-foreign-key-constraint -- reviewed\nALTER TABLE o ADD COLUMN a_id bigint REFERENCES a (id);\n",
    });
    try {
      const found = await rulesOf(q.dir, ['.']);
      expect(found.filter((x) => x.startsWith('a.sql:adding-foreign-key-constraint'))).toHaveLength(1);
      expect(found.filter((x) => x === 'b.sql:prefer-timestamptz')).toHaveLength(1);
      expect(found.filter((x) => x.startsWith('c.sql'))).toEqual([]);
      expect(found.filter((x) => x.startsWith('d.sql:ban-drop-table'))).toEqual([]);
      expect(found.filter((x) => x.startsWith('d.sql'))).not.toEqual([]);
      expect(found.filter((x) => x.startsWith('e.sql:adding-foreign-key') || x.startsWith('e.sql:fk-without'))).toEqual([]);
    } finally {
      q.remove();
    }
  });

  it('reads .squawk.toml: excluded_rules (squawk aliases too), excluded_paths, assume_in_transaction, pg_version', async () => {
    const files = {
      'db/001.sql': "ALTER TABLE o ADD COLUMN a_id bigint REFERENCES a (id);\nALTER TABLE o ADD COLUMN note text DEFAULT 'x';\n",
      'db/002.sql': 'CREATE INDEX CONCURRENTLY o_a_idx ON o (a_id);\n',
      'db/legacy/000.sql': 'DROP TABLE everything;\n',
    };
    const q = project(files);
    try {
      const before = await rulesOf(q.dir, ['db']);
      expect(before).toEqual(
        expect.arrayContaining(['db/001.sql:adding-foreign-key-constraint', 'db/001.sql:require-lock-timeout', 'db/legacy/000.sql:ban-drop-table']),
      );
      expect(before).not.toContain('db/002.sql:ban-concurrent-index-creation-in-transaction');
      expect(before).not.toContain('db/001.sql:adding-field-with-default');

      writeFileSync(
        path.join(q.dir, '.squawk.toml'),
        'excluded_rules = ["adding-foreign-key-constraint", "require-timeout-settings"]\nexcluded_paths = ["db/legacy/**"]\nassume_in_transaction = true\npg_version = "10.0"\n',
      );
      const after = await rulesOf(path.join(q.dir, 'db'), ['.']);
      expect(after.filter((x) => /adding-foreign-key-constraint|require-lock-timeout|require-statement-timeout/.test(x))).toEqual([]);
      expect(after.filter((x) => x.startsWith('legacy/'))).toEqual([]);
      expect(after).toContain('002.sql:ban-concurrent-index-creation-in-transaction');
      expect(after).toContain('001.sql:adding-field-with-default');

      writeFileSync(path.join(q.dir, '.squawk.toml'), 'excluded_rules = [1, 2]\n');
      const bad = await runCli(cli.entry, ['lint', 'db'], { cwd: q.dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('excluded_rules: expected an array of strings');
    } finally {
      q.remove();
    }
  });

  it('reads fail_on from dbops.toml, else from the dbops key of package.json; the flag wins', async () => {
    const q = project({
      'n.sql': "SET lock_timeout = '1s';\nSET statement_timeout = '1s';\nCREATE TABLE note (id bigint PRIMARY KEY, at timestamp);\n",
      'package.json': JSON.stringify({ name: 'x', dbops: { fail_on: 'warning' } }),
    });
    try {
      expect((await runCli(cli.entry, ['lint', 'n.sql'], { cwd: q.dir })).code).toBe(1);
      writeFileSync(path.join(q.dir, 'dbops.toml'), 'fail_on = "none"\n');
      expect((await runCli(cli.entry, ['lint', 'n.sql'], { cwd: q.dir })).code).toBe(0);
      expect((await runCli(cli.entry, ['lint', '--fail-on', 'warning', 'n.sql'], { cwd: q.dir })).code).toBe(1);
    } finally {
      q.remove();
    }
  });

  it('--git-diff <ref> lints only files changed against the ref (new, modified, untracked)', async () => {
    const q = project({ 'm/001.sql': 'DROP TABLE a;\n', 'm/002.sql': 'DROP TABLE b;\n', 'm/003.sql': 'DROP TABLE c;\n' });
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: q.dir,
        stdio: 'pipe',
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' },
      });
    try {
      git('init', '-q');
      git('add', '.');
      git('commit', '-qm', 'base');
      writeFileSync(path.join(q.dir, 'm/002.sql'), 'DROP TABLE b2;\n');
      writeFileSync(path.join(q.dir, 'm/004.sql'), 'DROP TABLE d;\n');
      const files = (await rulesOf(q.dir, ['--git-diff', 'HEAD', 'm'])).map((x) => x.split(':')[0]);
      expect([...new Set(files)]).toEqual(['m/002.sql', 'm/004.sql']);
      const bad = await runCli(cli.entry, ['lint', '--git-diff', 'no-such-ref', 'm'], { cwd: q.dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--git-diff no-such-ref');
    } finally {
      q.remove();
    }
  });

  it('the bin runs from the TypeScript sources too (the workspace without a build)', async () => {
    const r = await runCli(path.join(CLI_PACKAGE, 'bin/dbops.js'), ['--version'], { cwd: CLI_PACKAGE, env: { DBOPS_CLI_FROM_SOURCE: '1' } });
    expect(r).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(path.join(CLI_PACKAGE, 'package.json'), 'utf8')).version}\n` });
  });
});
