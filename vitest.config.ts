import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Each test file starts its own runtime and state store; two cores, so two workers.
    pool: 'forks',
    maxWorkers: 2,
    // One process per worker for all its files: a file's runtime still starts fresh, but the
    // module graph (seconds of transform and import per file) and the sandbox thread's PGlite
    // base image are loaded once per worker instead of once per file.
    isolate: false,
    // Generous: CI has two cores and end-to-end tests start whole runtimes and sandboxes.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // DBOPS_LOG_LEVEL=error npm test shows the service's logs, e.g. the cause of an unexpected 500.
    env: { DBOPS_LOG_LEVEL: process.env.DBOPS_LOG_LEVEL ?? 'silent' },
  },
});
