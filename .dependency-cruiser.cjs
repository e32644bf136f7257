// The folders' boundaries (docs/fileNames.md), checked on every `npm test` (package.json "pretest"):
//   npm run boundaries
// Type-only imports count as imports (tsPreCompilationDeps), so a boundary cannot be crossed "just for a
// type". tests/ are exempt: they may reach into any folder.

/** Modules that do I/O: the file system, the network, processes, the OS; and the packages built on them. */
const IO_CORE_MODULES = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'tls',
  'dgram',
  'dns',
  'dns/promises',
  'child_process',
  'cluster',
  'worker_threads',
  'os',
  'readline',
  'inspector',
  'process',
];
const IO_PACKAGES = [
  'undici',
  'redis',
  '@redis/[^/]+',
  'ioredis',
  'bullmq',
  'express',
  'express-session',
  'connect-redis',
  'pino',
  'pino-http',
  'multer',
  'helmet',
  'openid-client',
  'oidc-provider',
  'rate-limiter-flexible',
  'esbuild',
  'tsx',
  'playwright-core',
  'supertest',
];

const anyOf = (names) => `(${names.join('|')})`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-no-app-folder',
      comment: 'shared/ is pure domain rules and schemas that every side uses; it depends on none of them.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(server|views|client|sandbox|workers|tests)/' },
    },
    {
      name: 'shared-no-io-core-module',
      comment: 'shared/ does no I/O: no file system, network, process or OS module of Node.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core'], path: `^(node:)?${anyOf(IO_CORE_MODULES)}$` },
    },
    {
      name: 'shared-no-io-package',
      comment: 'shared/ does no I/O: no HTTP client or server, Redis, queue, logger or other package built on it.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: `(^|/)node_modules/${anyOf(IO_PACKAGES)}/` },
    },
    {
      name: 'views-not-to-server',
      comment: 'views/ render from the props they are given; what they need of the page shell lives in views/ (e.g. views/components/Island.tsx).',
      severity: 'error',
      from: { path: '^views/' },
      to: { path: '^server/' },
    },
    {
      name: 'stage-not-to-another-stage',
      comment:
        'A stage (server/stages/<name>/) declares its own pages on the page kit and imports no other stage: what two ' +
        'stages share lives in server/ (the kit, uploads, infra), shared/ or views/; the composition root wires the rest.',
      severity: 'error',
      from: { path: '^server/stages/([^/]+)/' },
      to: { path: '^server/stages/', pathNot: '^server/stages/$1/' },
    },
    {
      name: 'server-not-to-sandbox',
      comment: 'The sandbox stands in for the upstreams by their wire contracts (shared/contracts/); server code never knows it.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^sandbox/' },
    },
    {
      name: 'server-not-to-workers',
      comment:
        'The web side does not import the jobs: the job data, job ids and enqueueing live in shared/creationJobContract.ts and ' +
        'server/infra/creationJobs.ts. Only the composition root, server/main.ts, imports workers/ to wire the job ' +
        'handlers into the runner of the worker role.',
      severity: 'error',
      from: { path: '^server/', pathNot: '^server/main\\.ts$' },
      to: { path: '^workers/' },
    },
    {
      name: 'workers-not-to-server',
      comment:
        'A job declares the ports it needs (structural interfaces in the job file, data types in shared/); ' +
        'server/main.ts hands it the concrete clients and stores.',
      severity: 'error',
      from: { path: '^workers/' },
      to: { path: '^server/' },
    },
    {
      name: 'islands-only-to-shared-client-views',
      comment:
        'An island is bundled for the browser: it imports only shared/, client/, views/ (the component it hydrates), ' +
        'React and zod, never server code, the sandbox or a Node module.',
      severity: 'error',
      from: { path: '^client/islands/' },
      to: {
        pathNot: ['^(shared|client|views)/', '(^|/)node_modules/(@types/)?(react|react-dom|scheduler|zod)/'],
      },
    },
    {
      name: 'bench-without-test-runner',
      comment:
        '`npm run bench` (bench/) runs on its own, never inside vitest: what it borrows from tests/support must not ' +
        'load the test runner, directly or through another module.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '(^|/)node_modules/(vitest|@vitest/[^/]+)/', reachable: true },
    },
    {
      name: 'no-circular',
      comment:
        'Modules import each other one way: a cycle makes the load order decide which import is still undefined, ' +
        'and ties the modules together so neither can change alone. Move what both need into a third module.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to no file is a mistake (and would hide a crossing of the rules above).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(public/build|test-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
