import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'common/**/*.test.ts', 'server/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each server test file starts its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});
