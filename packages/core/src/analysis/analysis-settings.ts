import { sandboxRunSettings, sandboxServerSettings, type SandboxServerSettings } from './sandbox/sandbox-server-settings';

/** The analysis sandbox's settings, parsed from the environment. */
export interface AnalysisSettings {
  /** The dedicated sandbox server (`DBOPS_SANDBOX_SERVER_URL`), or undefined for PGlite only. */
  server: SandboxServerSettings | undefined;
  /** Hard deadline and thread count of sandbox runs. */
  run: { deadlineMs?: number; maxThreads?: number };
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
    s = { server: sandboxServerSettings(env), run: sandboxRunSettings(env) };
    parsed.set(env, s);
  }
  return s;
}
