import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { FromFunction, ToFunction } from './lambda-protocol';

/** One function as the local Lambda service runs it (the list comes from infra/local-cloud.ts). */
export interface FunctionSpec {
  name: string;
  /** The bundle that exports `handler`. */
  bundle: string;
  sizing: { memoryMb: number; timeoutSeconds: number };
}

/** Why an invocation failed, as Lambda reports it (`Unhandled` for a thrown error). */
export type InvokeFailure = 'Unhandled' | 'Runtime.ExitError' | 'Sandbox.Timedout' | 'Runtime.ImportModuleError';

export class InvokeError extends Error {
  constructor(
    readonly kind: InvokeFailure,
    message: string,
  ) {
    super(message);
    this.name = 'InvokeError';
  }
}

/** Figures of one function process (for the cold-start bench and the fault drills). */
export interface InstanceStats {
  function: string;
  pid: number;
  /** Process start to the bundle imported (Lambda's init), measured inside the process. */
  initMs: number;
  /** Process spawn to the first invocation's answer, measured by the service. */
  firstAnswerMs: number | null;
  /** Resident set size after the last answer (or after init). */
  rss: number;
  invocations: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** One warm process: serves one invocation at a time, may be recycled at any moment. */
class Instance {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly spawnedAt = performance.now();
  busy = false;
  dead = false;
  /** Killed and on its way out: never handed another invocation. */
  doomed = false;
  stats: InstanceStats;
  #pending = new Map<number, Pending>();
  #next = 0;

  constructor(
    readonly spec: FunctionSpec,
    bootstrap: string,
    env: Record<string, string>,
    onExit: (instance: Instance) => void,
  ) {
    // Plain node, no TypeScript loader (execArgv: []): the bundle runs as uploaded. The heap
    // limit follows the function's memory, as Lambda sizes Node's.
    this.child = fork(bootstrap, [spec.bundle], {
      execArgv: [`--max-old-space-size=${Math.max(128, Math.floor(spec.sizing.memoryMb * 0.85))}`],
      env: { ...env, AWS_LAMBDA_FUNCTION_NAME: spec.name, AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(spec.sizing.memoryMb) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    this.stats = { function: spec.name, pid: this.child.pid ?? -1, initMs: 0, firstAnswerMs: null, rss: 0, invocations: 0 };
    this.ready = new Promise<void>((resolve, reject) => {
      this.child.on('message', (message: FromFunction) => {
        if (message.type === 'ready') {
          this.stats.initMs = message.initMs;
          this.stats.rss = message.rss;
          resolve();
        } else if (message.type === 'init-error') {
          reject(new InvokeError('Runtime.ImportModuleError', message.message));
        } else if (message.type === 'result') {
          const pending = this.#pending.get(message.id);
          if (!pending) return;
          this.#pending.delete(message.id);
          clearTimeout(pending.timer);
          this.stats.rss = message.rss;
          this.stats.invocations += 1;
          this.stats.firstAnswerMs ??= Math.round(performance.now() - this.spawnedAt);
          if (message.ok) pending.resolve(message.value);
          else pending.reject(new InvokeError('Unhandled', `${message.errorType}: ${message.errorMessage}`));
        }
      });
      this.child.once('exit', (code, signal) => {
        this.dead = true;
        const why = new InvokeError('Runtime.ExitError', `${spec.name}: the function process exited (${signal ?? `code ${code}`})`);
        reject(why);
        for (const p of this.#pending.values()) {
          clearTimeout(p.timer);
          p.reject(why);
        }
        this.#pending.clear();
        onExit(this);
      });
    });
    this.ready.catch(() => undefined);
  }

  invoke(event: unknown, deadlineMs: number, requestId: string): Promise<unknown> {
    const id = ++this.#next;
    return new Promise<unknown>((resolve, reject) => {
      // Lambda stops an invocation at its timeout and throws the instance away.
      const timer = setTimeout(
        () => {
          this.#pending.delete(id);
          reject(new InvokeError('Sandbox.Timedout', `${this.spec.name}: Task timed out after ${this.spec.sizing.timeoutSeconds} seconds`));
          this.kill();
        },
        Math.max(0, deadlineMs - Date.now()),
      );
      this.#pending.set(id, { resolve, reject, timer });
      const message: ToFunction = {
        type: 'invoke',
        id,
        event,
        context: { awsRequestId: requestId, functionName: this.spec.name, memoryLimitInMB: String(this.spec.sizing.memoryMb), deadlineMs },
      };
      this.child.send(message);
    });
  }

  kill(): void {
    this.doomed = true;
    if (!this.dead) this.child.kill('SIGKILL');
  }
}

export interface LambdaServiceOptions {
  functions: readonly FunctionSpec[];
  /** The bootstrap each function process starts from (infra/local-cloud.ts bundles it). */
  bootstrap: string;
  /** The functions' environment (the deploy's, infra/function-defaults.ts). */
  env: Record<string, string>;
  /** Most concurrent instances of one function (Lambda's reserved concurrency). Default 8. */
  maxConcurrency?: number;
  /** An idle instance is stopped after this long (Lambda recycles idle instances). Default 5 min. */
  idleMs?: number;
}

/**
 * A local Lambda service: every function runs in processes of its own, started from its bundle.
 * An invocation goes to an idle warm instance of the function, or to a new one (a cold start) up
 * to the concurrency limit, or waits for one; an instance never serves two invocations at once.
 * Instances stop when idle for a while, on a crash, on a timeout, or whenever {@link recycle}
 * or {@link killBusy} says so: callers never rely on an instance staying warm.
 */
export class LocalLambdaService {
  readonly #options: LambdaServiceOptions;
  readonly #specs = new Map<string, FunctionSpec>();
  readonly #instances = new Map<string, Set<Instance>>();
  readonly #waiting = new Map<string, (() => void)[]>();
  readonly #idleTimers = new Map<Instance, NodeJS.Timeout>();
  /** Figures of every instance ever started, in start order. */
  readonly history: InstanceStats[] = [];
  #closed = false;

  constructor(options: LambdaServiceOptions) {
    this.#options = options;
    for (const f of options.functions) this.#specs.set(f.name, f);
  }

  has(name: string): boolean {
    return this.#specs.has(name);
  }

  /** Runs one invocation of `name` with `event`; rejects with an {@link InvokeError} as Lambda would fail it. */
  async invoke(name: string, event: unknown, requestId: string = randomUUID()): Promise<unknown> {
    const spec = this.#specs.get(name);
    if (!spec) throw new Error(`no function ${name}`);
    const instance = await this.#acquire(spec);
    const deadline = Date.now() + spec.sizing.timeoutSeconds * 1000;
    try {
      return await instance.invoke(event, deadline, requestId);
    } finally {
      this.#release(instance);
    }
  }

  /**
   * `update-function-configuration`: the function's new timeout applies to the invocations that
   * start from now on (warm instances keep serving; their running invocation keeps its deadline).
   */
  updateFunctionConfiguration(name: string, config: { timeoutSeconds: number }): void {
    const spec = this.#specs.get(name);
    if (!spec) throw new Error(`no function ${name}`);
    this.#specs.set(name, { ...spec, sizing: { ...spec.sizing, timeoutSeconds: config.timeoutSeconds } });
  }

  /** The function's configuration as invocations see it now. */
  configuration(name: string): FunctionSpec | undefined {
    return this.#specs.get(name);
  }

  /** Figures of the live instances of `name` (all functions when omitted). */
  live(name?: string): InstanceStats[] {
    return [...this.#instances.entries()].filter(([n]) => name === undefined || n === name).flatMap(([, set]) => [...set].map((i) => i.stats));
  }

  /** SIGKILLs the instances of `name` that are running an invocation now; returns how many. */
  killBusy(name: string): number {
    const busy = [...(this.#instances.get(name) ?? [])].filter((i) => i.busy);
    for (const i of busy) i.kill();
    return busy.length;
  }

  /** Stops every idle instance of `name` (all functions when omitted): the next invocation is a cold start. */
  recycle(name?: string): void {
    for (const [n, set] of this.#instances) if (name === undefined || n === name) for (const i of set) if (!i.busy) i.kill();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#instances.values()].flatMap((s) => [...s]);
    await Promise.all(
      all.map(
        (i) =>
          new Promise<void>((resolve) => {
            if (i.dead) return resolve();
            i.child.once('exit', () => resolve());
            i.kill();
          }),
      ),
    );
    for (const t of this.#idleTimers.values()) clearTimeout(t);
  }

  async #acquire(spec: FunctionSpec): Promise<Instance> {
    for (;;) {
      if (this.#closed) throw new InvokeError('Runtime.ExitError', 'the local Lambda service is closed');
      const set = this.#instances.get(spec.name) ?? new Set<Instance>();
      this.#instances.set(spec.name, set);
      const idle = [...set].find((i) => !i.busy && !i.dead && !i.doomed);
      if (idle) {
        idle.busy = true;
        clearTimeout(this.#idleTimers.get(idle));
        this.#idleTimers.delete(idle);
        return idle;
      }
      if (set.size < (this.#options.maxConcurrency ?? 8)) {
        const instance = new Instance(spec, this.#options.bootstrap, this.#options.env, (gone) => this.#forget(gone));
        instance.busy = true;
        set.add(instance);
        this.history.push(instance.stats);
        await instance.ready;
        return instance;
      }
      await new Promise<void>((resolve) => {
        const list = this.#waiting.get(spec.name) ?? [];
        list.push(resolve);
        this.#waiting.set(spec.name, list);
      });
    }
  }

  #release(instance: Instance): void {
    instance.busy = false;
    if (!instance.dead && !instance.doomed) {
      const timer = setTimeout(() => instance.kill(), this.#options.idleMs ?? 300_000);
      timer.unref();
      this.#idleTimers.set(instance, timer);
    }
    this.#wake(instance.spec.name);
  }

  #forget(instance: Instance): void {
    this.#instances.get(instance.spec.name)?.delete(instance);
    clearTimeout(this.#idleTimers.get(instance));
    this.#idleTimers.delete(instance);
    this.#wake(instance.spec.name);
  }

  #wake(name: string): void {
    this.#waiting.get(name)?.shift()?.();
  }
}
