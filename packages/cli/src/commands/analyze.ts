import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AnalysisReport } from '../service/service-client';
import { CliError } from '../cli-error';
import { loadConfig } from '../config/cli-config';
import { type CliFinding, cliFinding, type FileReport, statementBody } from '../lint/cli-finding';
import { collectFiles } from '../lint/collect-files';
import { isIgnored, readIgnores } from '../lint/ignore-comments';
import { displayPath } from '../lint/lint-files';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS, failOnOf, parse, reporterOf } from '../options';
import { emit, outputOptions } from '../output';
import { ruleCatalog } from '../rule-catalog';
import type { RunContext } from '../run-context';
import { connectionId, serviceClient } from '../service/service-settings';
import { sha256, storeToken } from '../service/token-store';
import { VERSION } from '../version';

export const ANALYZE_HELP = `Usage: dbops analyze [options] --connection <id> <files|dirs|globs>...

Sends each file to the dbops service, which analyzes it against the live schema (table sizes,
lock times, blast radius, sandbox run), prints the report and stores the approval token in
.dbops/tokens/ for dbops apply.

Options:
      --connection <id>       connection id (see dbops connections); or DBOPS_CONNECTION, or dbops.toml
      --base-url <url>        service URL (or DBOPS_BASE_URL, dbops.toml base_url; default http://127.0.0.1:4000)
      --git-diff <ref>        only files changed against <ref>
  -r, --reporter <name>       tty, gcc, json, sarif, gitlab, github, markdown
  -o, --output <file>         write the report to a file
      --markdown-file <file>  also write the markdown report (for a pull-request comment)
      --fail-on <severity>    error (default), warning, info, none; a failed sandbox run also fails
      --safe                  also print the safe plan the service proved for a migration that blocks
                              writes for long, write it to .dbops/safe-plans/<file> and store its
                              token, so dbops apply .dbops/safe-plans/<file> runs it
  -c, --config <file>         a .squawk.toml;  --dbops-config <file>: a dbops.toml

The API key comes from DBOPS_API_KEY or the credentials file dbops login writes.
`;

/**
 * `--safe`: the proved safe plan as notes (its steps), written to `.dbops/safe-plans/<file>` with
 * its token stored for `dbops apply`; or why there is none.
 */
function safePlanNotes(cwd: string, shown: string, connection: string, report: AnalysisReport): string[] {
  const plan = report.safe_plan;
  if (!plan) return [report.safe_plan_reason ? `No safe plan: ${report.safe_plan_reason}` : 'No safe plan needed: no statement blocks writes for long.'];
  const file = path.join('.dbops', 'safe-plans', shown.replace(/[\\/]/g, '__'));
  mkdirSync(path.join(cwd, path.dirname(file)), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(cwd, file), plan.combined_script);
  if (plan.approval_token)
    storeToken(cwd, plan.combined_script, {
      connection_id: connection,
      approval_token: plan.approval_token,
      sql_sha256: sha256(plan.combined_script),
      file,
      risk_score: report.risk_score,
      created_at: new Date().toISOString(),
    });
  return [
    `Safe plan (proved equivalent; dbops apply ${file}): ${plan.explanation}`,
    ...plan.steps.map(
      (s) =>
        `  step ${s.index + 1}${s.transactional ? '' : ' (alone, no transaction)'}: ${s.lock_type} ~${Math.round(s.lock_duration_ms)} ms: ${s.sql.replace(/\s+/g, ' ')}`,
    ),
  ];
}

/** The service's report as findings of this file (ignore comments applied, as in lint). */
export function reportToFile(file: string, sql: string, report: AnalysisReport): FileReport['findings'] {
  const ignores = readIgnores(sql);
  if (ignores.file === 'all') return [];
  const out: CliFinding[] = [];
  for (const f of report.findings ?? []) {
    const s = report.statements[f.statement_index];
    const body = statementBody(s?.sql ?? '');
    const endLine = f.location.line + (body.match(/\n/g)?.length ?? 0);
    if (isIgnored(ignores, f.rule, f.location.line, endLine)) continue;
    out.push(cliFinding(f, body, endLine));
  }
  return out;
}

export async function analyzeCommand(argv: string[], ctx: RunContext): Promise<number> {
  const { values, positionals } = parse(argv, { ...OUTPUT_OPTIONS, ...SERVICE_OPTIONS, 'git-diff': { type: 'string' }, safe: { type: 'boolean' } } as const);
  if (values.help) {
    ctx.stdout(ANALYZE_HELP);
    return 0;
  }
  const cfg = loadConfig(ctx.cwd, { squawk: values.config, dbops: values['dbops-config'] });
  const reporter = reporterOf(values, ctx.env);
  const failOn = failOnOf(values['fail-on'], cfg.failOn);
  const connection = connectionId(values.connection, cfg, ctx.env);
  const client = serviceClient(values, cfg, ctx.env);
  if (positionals.length === 0 && !values['git-diff']) throw new CliError(`no files given\n\n${ANALYZE_HELP}`);
  const files = await collectFiles(positionals, { cwd: ctx.cwd, excluded: cfg.excludedPaths, gitDiff: values['git-diff'] });
  const reports: FileReport[] = [];
  let failed = false;
  for (const file of files) {
    const sql = readFileSync(file, 'utf8');
    const shown = displayPath(ctx.cwd, file);
    if (sql.trim() === '') {
      reports.push({ file: shown, findings: [] });
      continue;
    }
    const report = await client.analyze(connection, sql);
    let tokenFile: string | null = null;
    if (report.approval_token) {
      tokenFile = path.relative(
        ctx.cwd,
        storeToken(ctx.cwd, sql, {
          connection_id: connection,
          approval_token: report.approval_token,
          sql_sha256: sha256(sql),
          file: shown,
          risk_score: report.risk_score,
          created_at: new Date().toISOString(),
        }),
      );
    }
    const sandboxRan = report.sandbox_result.migration_error !== 'sandbox not run';
    if ((sandboxRan && !report.sandbox_result.passed) || (cfg.maxRiskScore !== undefined && report.risk_score >= cfg.maxRiskScore)) failed = true;
    const notes = report.warnings.filter((w) => !/^Statement \d+: \[/.test(w));
    // The sandbox's round trip of the rollback (a service older than #36 does not send it).
    const proof = report.rollback_plan;
    if (typeof proof.verified === 'boolean') notes.push(`Rollback ${proof.verified ? 'verified' : 'NOT verified'} in the sandbox: ${proof.verification}`);
    if (cfg.maxRiskScore !== undefined && report.risk_score >= cfg.maxRiskScore)
      notes.push(`Risk score ${report.risk_score} reaches the threshold ${cfg.maxRiskScore} (thresholds.max_risk_score).`);
    if (values.safe) notes.push(...safePlanNotes(ctx.cwd, shown, connection, report));
    reports.push({
      file: shown,
      findings: reportToFile(shown, sql, report),
      analysis: {
        risk_score: report.risk_score,
        risk_category: report.risk_category,
        sandbox_passed: report.sandbox_result.passed,
        sandbox_error: report.sandbox_result.migration_error,
        token_path: tokenFile,
        notes,
      },
    });
  }
  return emit(
    { command: 'analyze', files: reports, version: VERSION, rules: ruleCatalog() },
    failOn,
    outputOptions(reporter, values, ctx),
    failed && failOn !== 'none',
  );
}
