import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits, a promise where a callback's result is ignored, a switch that forgets
    // a case. They hold by the type checker, not by discipline.
    files: ['apps/server/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'e2e/**/*.ts', 'bench/src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // React calls an async handler and ignores its promise, as intended (antd shows the loading state from it).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['apps/server/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{js,mjs}', '*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    rules: {
      // Inside a transaction's callback the plain handle waits for the connection the transaction holds (SQLite has
      // one): the server hung on this (issue 20). The runtime guard in db/database.ts catches what this cannot see.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='execute'][callee.object.callee.property.name='transaction'] > :function MemberExpression[object.type='MemberExpression'][object.object.type='ThisExpression'][object.property.name='db'][property.name='kysely']",
          message: 'Use the transaction inside its callback, not this.db.kysely.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Features stay independent (house style): shared code lives in app/, api/, lib/, components/, i18n/.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../features/*', '../features/*', '@/features/*'],
              message: 'A feature must not import another feature, nor shared code a feature (app/ composes them).',
            },
          ],
        },
      ],
    },
  },
  {
    // app/ composes the features; the shared chart helpers' tests check them on the features' charts.
    files: ['apps/web/src/app/**/*.{ts,tsx}', 'apps/web/src/lib/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
