/** The process's surroundings, passed in so tests and the bin share one code path. */
export interface RunContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  isTty: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}
