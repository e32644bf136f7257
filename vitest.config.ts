import { defineConfig } from 'vitest/config';

export default defineConfig({
  // React's production runtime (NODE_ENV=production below) has no jsxDEV: compile JSX for production too.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    // Two test files at a time, one per core of the CI machine: a browser test waits on its pages about
    // a third of the time, which the other file's work fills. Every file starts its own stack on free ports
    // and its own Redis key prefix, so files never share state.
    maxWorkers: 2,
    // Files in one worker share the modules they import (node_modules, server code): loading them once
    // per worker instead of once per file saved a third of the suite's CPU. No test mocks modules or
    // changes process.env, and each file starts its own stack, so nothing carries over between files.
    isolate: false,
    // The longest walks take 45 s alone; beside another file on two cores, up to twice that.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // A page load can take seconds on a loaded 2-core CI machine; 1 s (the default) makes waits flaky.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    env: { NODE_ENV: 'production' },
  },
});
