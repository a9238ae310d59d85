// Lint for the whole repository (run by `npm test` as `npm run lint`). Formatting is Prettier's job: eslint-config-prettier turns off the rules that would fight it.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'packages/cli/.test-dist-*/**', '.sst/**', 'packages/web/src/sst-env.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A leading underscore marks a value left unused on purpose (rest siblings, positional args).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // SST's config is typed through the triple-slash reference it generates.
    files: ['sst.config.ts'],
    rules: { '@typescript-eslint/triple-slash-reference': 'off' },
  },
  {
    files: ['packages/web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests and benches read untyped JSON bodies; `any` stays out of the packages' modules.
    files: ['test/**', 'bench/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
