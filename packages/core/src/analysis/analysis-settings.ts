import type { SandboxEngineChoice } from './sandbox/run-sandbox';
import { sandboxRunSettings, sandboxServerSettings, type SandboxServerSettings } from './sandbox/sandbox-server-settings';

/** The analysis sandbox's settings, parsed from the environment. */
export interface AnalysisSettings {
  /** The dedicated sandbox server (`DBOPS_SANDBOX_SERVER_URL`), or undefined for PGlite only. */
  server: SandboxServerSettings | undefined;
  /** Hard deadline and thread count of sandbox runs, and the engine (`DBOPS_SANDBOX_ENGINE`). */
  run: { deadlineMs?: number; maxThreads?: number; engine?: SandboxEngineChoice };
}

const ENGINES: readonly SandboxEngineChoice[] = ['auto', 'pglite', 'embedded'];

function engineSetting(env: Readonly<Record<string, string | undefined>>): SandboxEngineChoice {
  const v = env.DBOPS_SANDBOX_ENGINE || 'auto';
  if (!ENGINES.includes(v as SandboxEngineChoice)) throw new Error(`DBOPS_SANDBOX_ENGINE must be one of ${ENGINES.join(', ')}, got ${JSON.stringify(v)}`);
  return v as SandboxEngineChoice;
}

const parsed = new WeakMap<object, AnalysisSettings>();

/**
 * The analysis settings of an environment, parsed once per environment object (the service's
 * settings keep one for the life of the process). Throws on a value the service cannot use, so
 * composition roots call it at start to refuse a bad configuration before serving.
 */
export function analysisSettings(env: Readonly<Record<string, string | undefined>>): AnalysisSettings {
  let s = parsed.get(env);
  if (!s) {
    s = { server: sandboxServerSettings(env), run: { ...sandboxRunSettings(env), engine: engineSetting(env) } };
    parsed.set(env, s);
  }
  return s;
}
