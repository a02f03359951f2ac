// Lint rules, including the module boundaries of STYLE.md §6: the browser app, the sync engine and
// the server share code only through common/.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const restrict = (...patterns) => ['error', { patterns: patterns.map((group) => ({ group: [group], message: `Import across a module boundary (${group}); share it through common/.` })) }];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-output/**', 'src/routeTree.gen.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  { files: ['src/**'], rules: { 'no-restricted-imports': restrict('**/server/**', '**/server') } },
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
  { files: ['server/cli.ts', 'server/main.ts', 'bench/**', 'tests/**', 'scripts/**'], rules: { 'no-console': 'off' } },
);
