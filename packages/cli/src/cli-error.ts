/**
 * A failure that ends the run with exit code 2: bad usage, an unreadable file or config, or no
 * answer from the service. Findings never throw; they decide between 0 and 1.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly kind: 'usage' | 'connection' | 'service' = 'usage',
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_ERROR = 2;
