// The stand-in for Lambda's Node.js runtime interface client inside one function process: it
// imports the function's bundle (the init phase), then runs one invocation at a time as the
// local Lambda service sends them, with a `context` whose remaining time counts down to the
// invocation's deadline as the real one does. Bundled on its own by infra/local-cloud.ts and
// started with plain `node` (no TypeScript loader): the function runs exactly as uploaded.
import { pathToFileURL } from 'node:url';
import type { FromFunction, InvokeContext, ToFunction } from './lambda-protocol';

type Handler = (event: unknown, context: object) => Promise<unknown>;

const send = (message: FromFunction): void => {
  process.send?.(message);
};

const contextOf = (c: InvokeContext): object => ({
  awsRequestId: c.awsRequestId,
  functionName: c.functionName,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${c.functionName}`,
  memoryLimitInMB: c.memoryLimitInMB,
  logGroupName: `/aws/lambda/${c.functionName}`,
  logStreamName: `local/${process.pid}`,
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => Math.max(0, c.deadlineMs - Date.now()),
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});

const bundle = process.argv[2];
if (!bundle) throw new Error('usage: node bootstrap.mjs <bundle>');

let handler: Handler;
try {
  const mod = (await import(pathToFileURL(bundle).href)) as { handler?: Handler };
  if (typeof mod.handler !== 'function') throw new Error(`${bundle} exports no handler`);
  handler = mod.handler;
} catch (error) {
  send({ type: 'init-error', message: (error as Error).message });
  process.exit(1);
}
send({ type: 'ready', initMs: Math.round(performance.now()), rss: process.memoryUsage().rss });

// Like Lambda, an error escaping the handler's promise chain ends the process (the runtime exits
// and the next invocation gets a fresh instance).
process.on('uncaughtException', () => process.exit(129));
process.on('unhandledRejection', () => process.exit(128));
process.on('disconnect', () => process.exit(0));

process.on('message', (message: ToFunction) => {
  if (message.type !== 'invoke') return;
  void (async () => {
    try {
      const value = await handler(message.event, contextOf(message.context));
      send({ type: 'result', id: message.id, ok: true, value: value ?? null, rss: process.memoryUsage().rss });
    } catch (error) {
      const e = error as Error;
      send({
        type: 'result',
        id: message.id,
        ok: false,
        errorType: e?.name ?? 'Error',
        errorMessage: e?.message ?? String(error),
        rss: process.memoryUsage().rss,
      });
    }
  })();
});
