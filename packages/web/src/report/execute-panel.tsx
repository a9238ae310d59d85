import { useEffect, useState } from 'preact/hooks';
import { endpoints } from '../api/endpoints';
import type { AnalysisReport, MigrationRequest, SafePlan } from '../api/types';
import { useAsync } from '../lib/use-async';
import { formatCountdown, tokenExpiry } from '../lib/token-expiry';
import { ErrorNote, Section } from '../views/common';
import { PlanOutcome } from './plan-outcome';
import { RequestOutcome } from './request-outcome';

const POLL_MS = 500;

function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/** Follows a request by polling (the service has no push; spec section 6) until it ends. */
export function useRequest(requestId: string | null): { request: MigrationRequest | null; pollError: string | null } {
  const [request, setRequest] = useState<MigrationRequest | null>(null);
  const [pollError, setPollError] = useState<string | null>(null);
  useEffect(() => {
    if (!requestId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (): Promise<void> => {
      try {
        const r = await endpoints.request(requestId);
        if (stopped) return;
        setRequest(r);
        setPollError(null);
        if (r.status === 'completed' || r.status === 'failed') return;
      } catch (e) {
        if (stopped) return;
        setPollError(e instanceof Error ? e.message : String(e));
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [requestId]);
  return { request, pollError };
}

/**
 * Approve and run: the analyzed SQL read-only, the token's time left, then the live request.
 * With `plan` (the user chose "Use the safe plan") it runs the plan instead, with the plan's own
 * token and exactly its `combined_script`, through the same approval and the same request.
 */
export function ExecutePanel({
  report,
  sql,
  plan = null,
  onUseOriginal,
  onSubmitted,
}: {
  report: AnalysisReport;
  sql: string;
  plan?: SafePlan | null;
  onUseOriginal?: () => void;
  onSubmitted?: () => void;
}) {
  const now = useNow(1000);
  const [confirmed, setConfirmed] = useState(false);
  const [submit, run] = useAsync(endpoints.execute);
  const submitted = submit.data !== null;
  useEffect(() => {
    if (submitted) onSubmitted?.();
  }, [submitted, onSubmitted]);
  const { request, pollError } = useRequest(submit.data?.request_id ?? null);
  const token = plan ? plan.approval_token : report.approval_token;
  const script = plan ? plan.combined_script : sql;
  const expiry = token ? tokenExpiry(token, now) : null;

  return (
    <Section title={plan ? 'Approve and run the safe plan' : 'Approve and run'} id="execute">
      {plan && !submit.data && (
        <div class="row">
          <span class="small">This runs the safe plan, not the original migration.</span>
          {onUseOriginal && (
            <button type="button" class="secondary" onClick={onUseOriginal}>
              Run the original instead
            </button>
          )}
        </div>
      )}
      {!token ? (
        <p class="note error">No approval token: the sandbox run did not pass, so this migration cannot be executed. Fix it and analyze again.</p>
      ) : (
        <>
          <label for="approved-sql">{plan ? 'Safe plan to run, exactly as proved (read-only)' : 'SQL to run, exactly as analyzed (read-only)'}</label>
          <textarea
            id="approved-sql"
            readOnly
            rows={Math.min(12, script.split('\n').length + 1)}
            value={script}
            spellcheck={false}
            data-testid="approved-sql"
          />
          {expiry && !submit.data && (
            <p class={`note ${expiry.state === 'valid' ? 'info' : expiry.state === 'expiring' ? 'warn' : 'error'}`} role="status" data-testid="token-expiry">
              {expiry.state === 'expired'
                ? 'The approval token has expired: analyze the migration again to get a new one.'
                : expiry.state === 'expiring'
                  ? `The approval token expires in ${formatCountdown(expiry.secondsLeft)}: run it now or analyze again.`
                  : `Approval token valid for ${formatCountdown(expiry.secondsLeft)} more (until ${expiry.expiresAt.toLocaleTimeString('en-GB')}).`}
            </p>
          )}
          {!submit.data && (
            <form
              class="stack"
              onSubmit={(e) => {
                e.preventDefault();
                void run({ approval_token: token, sql: script, connection_id: report.connection_id });
              }}
            >
              <label class="check">
                <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed((e.currentTarget as HTMLInputElement).checked)} /> I reviewed this
                report and approve running this {plan ? 'safe plan' : 'SQL'} on the connected database.
              </label>
              <button type="submit" class="danger" disabled={!confirmed || submit.busy || expiry?.state === 'expired'}>
                {submit.busy ? 'Submitting…' : plan ? 'Execute safe plan' : 'Execute migration'}
              </button>
            </form>
          )}
          <ErrorNote error={submit.error} />
          {submit.error?.status === 409 && <p class="small">Another migration is running on this connection; retry once it ends.</p>}
        </>
      )}
      {submit.data && (
        <div aria-live="polite" data-testid="request-status">
          <p>
            Request <code>{submit.data.request_id}</code>
          </p>
          {request ? <RequestOutcome request={request} hint={!plan} /> : <p>Submitted; waiting for the first status…</p>}
          {request && plan && <PlanOutcome request={request} plan={plan} />}
          {pollError && <p class="note warn">Polling failed ({pollError}); retrying.</p>}
        </div>
      )}
    </Section>
  );
}
