import { defineConfig } from 'vite';

/**
 * The console is plain Preact + TypeScript. Vite's own transformer compiles the JSX for Preact
 * (no framework plugin, so no Babel in the toolchain). `VITE_DBOPS_API_URL` points a cloud
 * build at its stage's API; empty means same origin (the local runtime).
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // One small bundle: the whole console is well under the size where splitting pays.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': process.env.DBOPS_API_ORIGIN ?? 'http://127.0.0.1:4000' } },
});
