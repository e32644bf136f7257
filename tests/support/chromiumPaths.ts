// Which Chromium runs where, without loading Playwright: vitest.config.ts sizes the run by it and globalSetup.ts names
// it, before any browser starts (tests/support/browser.ts launches it).
import { accessSync, constants } from 'node:fs';

/** Debian's chromium, the browser people run: the benchmarks' (a throttled phone, Lighthouse). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's chromium-headless-shell: the same Chromium (one Debian source package, one version, the same Blink and V8)
 * built for headless use only, as Playwright runs headless tests by default. `chromium --headless` runs the whole
 * browser, its tab strip, omnibox and loading animations composited in the dark: the suite's Chromium used a third more
 * CPU for the same pages (scripts/testSetup.mjs installs the shell beside chromium where it can).
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What the tests run: CHROMIUM_PATH when set, else the headless shell where installed, else Debian's chromium. */
export const TEST_CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (executable(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH);
