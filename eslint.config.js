// Lint rules, including the module boundaries of STYLE.md §6: the browser app, the sync engine and
// the server share code only through common/.
import js from '@eslint/js';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const restrict = (...patterns) => ['error', { patterns: patterns.map((group) => ({ group: [group], message: `Import across a module boundary (${group}); share it through common/.` })) }];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-output/**', 'src/routeTree.gen.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      // Type-aware rules: a promise nobody awaits or handles is a lost error in an async codebase.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  { files: ['src/**'], rules: { 'no-restricted-imports': restrict('**/server/**', '**/server') } },
  { files: ['src/**'], plugins: { 'react-hooks': reactHooks }, rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' } },
  // Every text a screen shows goes through i18next (src/i18n, issue 18): a literal in JSX, or in an
  // attribute a reader hears or sees, is English left on a Spanish or Dutch screen.
  {
    files: ['src/**/*.tsx'],
    plugins: { i18next },
    rules: { 'i18next/no-literal-string': ['error', { mode: 'jsx-only', 'jsx-attributes': { include: ['aria-label', 'placeholder', 'title', 'alt', 'label', 'aria-description', 'aria-valuetext'] } }] },
  },
  { files: ['server/**'], rules: { 'no-restricted-imports': restrict('**/src/**', '**/sync/**', '**/workers/**') } },
  { files: ['common/**'], rules: { 'no-restricted-imports': restrict('**/src/**', '**/sync/**', '**/server/**', '**/workers/**', 'react', 'fastify', 'kysely') } },
  // The sync engine is plain TypeScript: it runs in a worker, in Node tests and benches, never with a page.
  {
    files: ['sync/**'],
    languageOptions: { globals: { ...globals.node, ...globals.worker } },
    rules: {
      'no-restricted-imports': restrict('**/src/**', '**/server/**', '**/workers/**', 'react', 'react-dom', 'react/*', 'react-dom/*', '@tanstack/*', 'zustand', 'zustand/*', 'notistack', 'echarts', 'echarts/*'),
      'no-restricted-globals': ['error', ...['window', 'document', 'localStorage', 'sessionStorage'].map((name) => ({ name, message: 'sync/ runs off the page: no DOM.' }))],
    },
  },
  // Screens know the sync engine only through its vocabulary (sync/types) and the page's status store (src/sync).
  {
    files: ['src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/server'], message: 'Import across a module boundary; share it through common/.' },
            { group: ['**/../sync/*', '!**/../sync/types', '!**/sync/sync-store'], message: 'Screens do not use the sync engine\'s internals: record through src/api, read status from src/sync/sync-store.' },
          ],
        },
      ],
    },
  },
  // Plain JavaScript (this file, build scripts) is outside the TypeScript project: no type-aware rules there.
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['server/cli.ts', 'server/main.ts', 'bench/**', 'tests/**', 'scripts/**'], rules: { 'no-console': 'off' } },
);
