import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'common/**/*.test.ts', 'server/**/*.test.ts'],
    // The chaos scenario (a server process killed mid-replay, 3,000 changes) only runs in `npm run
    // test:chaos`, which sets CHAOS_RUNS.
    exclude: process.env.CHAOS_RUNS ? configDefaults.exclude : [...configDefaults.exclude, 'tests/chaos/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each server test file starts its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});
