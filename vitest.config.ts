import { defineConfig } from 'vitest/config';

export default defineConfig({
  // React's production runtime (NODE_ENV=production below) has no jsxDEV: compile JSX for production too.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    // Browser and multi-process tests are slow on a 2-core machine; run files one at a time there.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A page load can take seconds on a loaded 2-core CI machine; 1 s (the default) makes waits flaky.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    env: { NODE_ENV: 'production' },
  },
});
