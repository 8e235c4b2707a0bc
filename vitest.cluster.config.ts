import { defineConfig } from 'vitest/config';

// Several real server processes of the build (`npm run build` first) on one PostgreSQL database
// (tests/cluster/harness.ts). One file at a time: each starts processes of its own, and the machine is small.
export default defineConfig({
  test: {
    include: ['tests/cluster/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
