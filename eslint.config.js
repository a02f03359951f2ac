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
  { files: ['server/cli.ts', 'server/main.ts', 'bench/**', 'tests/**', 'scripts/**'], rules: { 'no-console': 'off' } },
);
