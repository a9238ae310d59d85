/**
 * Latency and throughput of buying credits on the local runtime (in-memory PGlite state,
 * one process): POST /billing/checkout against a local Stripe-compatible server, then the
 * signed checkout.session.completed webhook that adds the credits, then redeliveries of the
 * same events (the idempotent path). Load is generated in the same process.
 *
 *   npx tsx bench/billing-webhook.ts [--count 400] [--concurrency 8]
 */
import { parseArgs } from 'node:util';
import { billingEnv, noBillingEnv, sessionEvent, signPayload, startFakeStripe } from '../test/support/billing';
import { startTestRuntime } from '../test/support/test-runtime';

const { values } = parseArgs({ options: { count: { type: 'string', default: '400' }, concurrency: { type: 'string', default: '8' } } });
const count = Number(values.count);
const concurrency = Number(values.concurrency);

const fake = await startFakeStripe();
const t = await startTestRuntime({ env: { ...noBillingEnv, ...billingEnv(fake), DBOPS_RATE_LIMIT: '100000000' } });
const jwt = await t.jwt('bench-buyer');

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Runs `jobs` with `workers` in flight; returns per-job latencies (ms) and the wall time (s). */
async function measure(jobs: Array<() => Promise<void>>, workers: number): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const t0 = performance.now();
        await job();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - start) / 1000 };
}

const report = (name: string, r: { latencies: number[]; seconds: number }): void => {
  const rps = r.latencies.length / r.seconds;
  console.log(
    `${name.padEnd(46)} n=${String(r.latencies.length).padStart(4)}  ${rps.toFixed(0).padStart(5)} req/s  p50 ${pct(r.latencies, 50).toFixed(1)} ms  p95 ${pct(r.latencies, 95).toFixed(1)} ms  p99 ${pct(r.latencies, 99).toFixed(1)} ms`,
  );
};

const expectStatus = (status: number, want: number, what: string): void => {
  if (status !== want) throw new Error(`${what}: HTTP ${status}`);
};

// Warm-up: loads the handler modules and the Stripe SDK once.
expectStatus((await t.request('POST', '/billing/checkout', { jwt, body: { amount_cents: 500 } })).status, 200, 'warm-up');

const sessions: Array<{ sessionId: string; userId: string }> = [];
const checkout = await measure(
  Array.from({ length: count }, () => async () => {
    const res = await t.request('POST', '/billing/checkout', { jwt, body: { amount_cents: 500 } });
    expectStatus(res.status, 200, 'checkout');
    sessions.push({ sessionId: res.body.data.session_id, userId: fake.requests.at(-1)!.form['metadata[user_id]']! });
  }),
  concurrency,
);
report(`checkout (concurrency ${concurrency})`, checkout);

const signed = sessions.map((s) => {
  const payload = JSON.stringify(sessionEvent({ ...s, amountCents: 500, paymentIntent: null }));
  return { payload, signature: signPayload(payload) };
});
const deliver = (e: { payload: string; signature: string }, want: string) => async () => {
  const res = await t.request('POST', '/billing/webhook', {
    body: e.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': e.signature },
  });
  expectStatus(res.status, 200, 'webhook');
  if (res.body.data.outcome !== want) throw new Error(`webhook outcome ${res.body.data.outcome}, wanted ${want}`);
};

const half = Math.floor(signed.length / 2);
report(
  'webhook, paid, credits added (sequential)',
  await measure(
    signed.slice(0, half).map((e) => deliver(e, 'applied')),
    1,
  ),
);
report(
  `webhook, paid, credits added (concurrency ${concurrency})`,
  await measure(
    signed.slice(half).map((e) => deliver(e, 'applied')),
    concurrency,
  ),
);
report(
  `webhook, duplicate delivery (concurrency ${concurrency})`,
  await measure(
    signed.map((e) => deliver(e, 'duplicate')),
    concurrency,
  ),
);
const bad = signed.slice(0, 200).map((e) => async () => {
  const res = await t.request('POST', '/billing/webhook', {
    body: e.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': `${e.signature}0` },
  });
  expectStatus(res.status, 400, 'bad signature');
});
report(`webhook, bad signature rejected (concurrency ${concurrency})`, await measure(bad, concurrency));

const balance = (await t.request('GET', '/billing/balance', { jwt })).body.data.balance as string;
const expected = `${10 + 5 * signed.length}.0000`;
console.log(`final balance ${balance} (expected ${expected}: ${balance === expected ? 'ok' : 'MISMATCH'})`);

await t.close();
await fake.close();
