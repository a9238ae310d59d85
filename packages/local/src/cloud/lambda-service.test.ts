import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvokeError, LocalLambdaService } from './lambda-service';

// A function as a bundle would be: an ES module exporting `handler`, run from the bootstrap.
const HANDLER = `
export const handler = async (event, context) => {
  if (event.op === 'sleep') await new Promise((r) => setTimeout(r, event.ms));
  if (event.op === 'crash') process.exit(3);
  if (event.op === 'throw') throw new TypeError('bad input');
  return { pid: process.pid, remaining: context.getRemainingTimeInMillis(), name: context.functionName, memory: context.memoryLimitInMB };
};
`;

describe('local Lambda service', () => {
  let dir: string;
  let service: LocalLambdaService;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dbops-lambda-'));
    await writeFile(path.join(dir, 'fn.mjs'), HANDLER);
    await build({
      entryPoints: [path.join(import.meta.dirname, 'lambda-bootstrap.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: path.join(dir, 'bootstrap.mjs'),
      logLevel: 'silent',
    });
    service = new LocalLambdaService({
      functions: [
        { name: 'fn', bundle: path.join(dir, 'fn.mjs'), sizing: { memoryMb: 256, timeoutSeconds: 2 } },
        { name: 'missing', bundle: path.join(dir, 'nope.mjs'), sizing: { memoryMb: 256, timeoutSeconds: 2 } },
      ],
      bootstrap: path.join(dir, 'bootstrap.mjs'),
      env: { PATH: process.env.PATH ?? '' },
      maxConcurrency: 2,
    });
  });
  afterAll(async () => {
    await service?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs the handler in a process of its own with Lambda's context, its remaining time counting down from the timeout", async () => {
    const out = (await service.invoke('fn', { op: 'echo' })) as { pid: number; remaining: number; name: string; memory: string };
    expect(out.pid).not.toBe(process.pid);
    expect(out).toMatchObject({ name: 'fn', memory: '256' });
    expect(out.remaining).toBeGreaterThan(0);
    expect(out.remaining).toBeLessThanOrEqual(2000);
    // Warm: the next invocation reuses the process.
    expect(((await service.invoke('fn', { op: 'echo' })) as { pid: number }).pid).toBe(out.pid);
  });

  it('never gives one instance two invocations at once: a concurrent one starts another, beyond the limit it waits', async () => {
    const answers = (await Promise.all([1, 2, 3].map(() => service.invoke('fn', { op: 'sleep', ms: 300 })))) as { pid: number }[];
    const pids = new Set(answers.map((a) => a.pid));
    expect(pids.size).toBe(2);
    expect(service.live('fn').length).toBeLessThanOrEqual(2);
  });

  it('reports a thrown error as Unhandled and keeps the instance; a crash and a timeout lose it, and the next call starts fresh', async () => {
    await expect(service.invoke('fn', { op: 'throw' })).rejects.toMatchObject({ kind: 'Unhandled', message: 'TypeError: bad input' });
    const before = service.history.length;
    await expect(service.invoke('fn', { op: 'crash' })).rejects.toMatchObject({ kind: 'Runtime.ExitError' });
    const timedOut = await service.invoke('fn', { op: 'sleep', ms: 5000 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(InvokeError);
    expect((timedOut as InvokeError).kind).toBe('Sandbox.Timedout');
    expect(((await service.invoke('fn', { op: 'echo' })) as { pid: number }).pid).toBeGreaterThan(0);
    expect(service.history.length).toBeGreaterThan(before);
  });

  it("fails a function whose bundle cannot be imported as Lambda's Runtime.ImportModuleError", async () => {
    await expect(service.invoke('missing', {})).rejects.toMatchObject({ kind: 'Runtime.ImportModuleError' });
  });
});
