import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './tests/support/longestFirstSequencer.ts';
import { HEADLESS_SHELL_PATH, TEST_CHROMIUM_PATH } from './tests/support/chromiumPaths.ts';

export default defineConfig({
  // React's production runtime (NODE_ENV=production below) has no jsxDEV: compile JSX for production too.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    // The compiled server the tests' processes run (tests/support/globalSetup.ts).
    globalSetup: ['tests/support/globalSetup.ts'],
    // Four test files at a time on the CI machine's two cores when the browser tests run in the headless shell: most
    // files wait on pages, processes and polls far more than they compute, and with three the cores stood idle a
    // quarter of the run (7 min 14 s against 8 min 3 s for a clean clone's .ci/run; beside a CPU hog on both cores the
    // longest walk took 228 s of its 900). The whole browser (tests/support/chromiumPaths.ts) keeps the cores busy with three.
    // Every file starts its own stack on free ports and its own Redis key prefix, so files never share state.
    maxWorkers: TEST_CHROMIUM_PATH === HEADLESS_SHELL_PATH ? 4 : 3,
    // The longest files first (tests/support/longestFirstSequencer.ts), so that none starts last and runs alone.
    sequence: { sequencer: LongestFirstSequencer },
    // Files in one worker share the modules they import (node_modules, server code): loading them once
    // per worker instead of once per file saved a third of the suite's CPU. No test mocks modules or
    // changes process.env, and each file starts its own stack, so nothing carries over between files.
    isolate: false,
    // The longest walks take 45 s alone; beside other files on two cores, up to twice that, and a full CI run on a
    // busy machine saw three times (the journey walk past 120 s). A hook starts a stack's processes
    // (tests/support/stack.ts), which may take seconds beside other files.
    testTimeout: 240_000,
    hookTimeout: 150_000,
    // The global teardown waits for the static checks that ran beside the tests (tests/support/staticChecks.ts), which
    // on a machine kept busy by something else may still need minutes then.
    teardownTimeout: 300_000,
    // A page load can take seconds on a loaded 2-core CI machine; 1 s (the default) makes waits flaky.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    env: { NODE_ENV: 'production' },
  },
});
