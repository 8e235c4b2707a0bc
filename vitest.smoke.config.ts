import { defineConfig } from 'vitest/config';

// Tests that run the built product as a person would (after `npm run build`).
export default defineConfig({
  test: { include: ['tests/smoke/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 60_000, pool: 'forks' },
});
