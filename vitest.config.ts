import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '#common': new URL('./common', import.meta.url).pathname } },
  test: {
    include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'app/**/*.test.ts', 'tests/api/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
