// How the tests start a process of the product: as the Procfile does, from the compiled build
// (esbuild.server.mjs), which tests/support/globalSetup.ts builds once per test run, so it is the code under test.
// Not TypeScript compiled as it loads (tsx): that took twice the CPU per process start, and tens of seconds to
// answer beside other test files on a 2-core machine.

/** Node's arguments for `dist/<entry>.js` and the role's own arguments (`web`, `worker`). */
export function productProcessArgs(entry: 'server' | 'sandbox', ...args: string[]): string[] {
  return ['--enable-source-maps', `dist/${entry}.js`, ...args];
}
