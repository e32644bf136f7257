// Server build: the web and worker process (server/main.ts) and the sandbox (sandbox/main.ts) compiled to JavaScript in
// dist/, so production and the tests' processes start without compiling TypeScript (tsx is for development). One bundle
// per entry, one folder below the repository as server/ and sandbox/ are, so `new URL('../locales/', import.meta.url)`
// holds in the build too. Why it bundles the packages: docs/operations/deployment.md.
//   node esbuild.server.mjs [--quiet]
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const quiet = process.argv.includes('--quiet');

/** Packages that stay in node_modules: msgpackr (BullMQ's) finds its optional native extractor relative to its own module. */
export const externalPackages = ['msgpackr-extract'];

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  sourcemap: true,
  // No keepNames: it wraps every function the code makes, each closure of every request too, in a defineProperty (5 to
  // 15 % of a page's CPU). Stack traces read as written through the source maps (their names); an error's type in
  // the logs is its class's name, which tests/unit/serverBuild.test.ts holds unchanged for every class of ours.
  keepNames: false,
  metafile: true,
};

/**
 * A package's JSON file as `JSON.parse` of its text rather than as an object literal: V8 parses JSON much faster than
 * the same data as code (mime-db's table, which Express loads at start, is 150 KB).
 */
const packageJsonParsed = {
  name: 'package-json-parsed',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.json$/ }, (args) => {
      const text = JSON.stringify(JSON.parse(readFileSync(args.path, 'utf8')));
      return { contents: `module.exports = JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
    });
  },
};

/** Builds dist/server.js (with its chunks) and dist/sandbox.js; answers the output files. */
export async function buildServer({ outdir = path.join(root, 'dist') } = {}) {
  const logLevel = quiet ? 'warning' : 'info';
  // Chunks are named by their content's hash: an earlier build's would stay beside the new ones.
  for (const file of existsSync(outdir) ? readdirSync(outdir) : []) if (file.startsWith('chunk-')) rmSync(path.join(outdir, file));
  const [server, sandbox] = await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: { server: 'server/main.ts' },
      outdir,
      splitting: true,
      chunkNames: 'chunk-[name]-[hash]',
      external: externalPackages,
      // BullMQ's ES modules: its CommonJS entry re-exports at run time, which leaves a bundle's import() only a default.
      alias: { bullmq: 'bullmq/dist/esm/index.js' },
      sourcesContent: false,
      define: { 'process.env.NODE_ENV': '"production"' },
      minifyWhitespace: true,
      minifySyntax: true,
      plugins: [packageJsonParsed],
      // Bundled CommonJS packages require Node's own modules (and the external ones) at run time.
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      logLevel,
    }),
    esbuild.build({ ...common, entryPoints: { sandbox: 'sandbox/main.ts' }, outdir, packages: 'external', logLevel }),
  ]);
  const serverFiles = Object.keys(server.metafile.outputs).filter((file) => file.endsWith('.js'));
  for (const file of serverFiles) ownCodeOnlyMap(path.join(root, file));
  return [...serverFiles, ...Object.keys(sandbox.metafile.outputs).filter((file) => file.endsWith('.js'))];
}

// --- source maps of our own code ----------------------------------------------------------------------------------

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Map([...BASE64].map((c, i) => [c, i]));

/** The numbers of one Base64 VLQ segment. */
function decodeSegment(text) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const c of text) {
    const digit = BASE64_VALUE.get(c);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function encodeSegment(values) {
  let text = '';
  for (const v of values) {
    let rest = v < 0 ? (-v << 1) | 1 : v << 1;
    do {
      const digit = rest & 31;
      rest >>>= 5;
      text += BASE64[rest > 0 ? digit | 32 : digit];
    } while (rest > 0);
  }
  return text;
}

/**
 * Rewrites the map of the bundle file `js` without the mappings (and sources) of node_modules. A file of packages only
 * gets none: Node would still read its map and measure every line of the file as it loads it.
 */
function ownCodeOnlyMap(js) {
  const file = `${js}.map`;
  const map = JSON.parse(readFileSync(file, 'utf8'));
  const kept = map.sources.map((s) => !s.includes('node_modules/'));
  const newIndex = [];
  const sources = [];
  map.sources.forEach((s, i) => {
    if (kept[i]) newIndex[i] = sources.push(s) - 1;
  });
  // Every field but the generated column is relative to the previous segment of the file: decode to absolute values,
  // keep the segments of our sources, encode relative to the kept ones.
  const abs = [0, 0, 0, 0];
  const out = [0, 0, 0, 0];
  const lines = map.mappings.split(';').map((line) => {
    let genCol = 0;
    let outCol = 0;
    const segments = [];
    for (const text of line === '' ? [] : line.split(',')) {
      const [col, ...rest] = decodeSegment(text);
      genCol += col;
      if (rest.length === 0) continue;
      rest.forEach((v, i) => (abs[i] += v));
      if (!kept[abs[0]]) continue;
      const next = [newIndex[abs[0]], abs[1], abs[2], ...(rest.length > 3 ? [abs[3]] : [])];
      segments.push(encodeSegment([genCol - outCol, ...next.map((v, i) => v - out[i])]));
      next.forEach((v, i) => (out[i] = v));
      outCol = genCol;
    }
    return segments.join(',');
  });
  if (sources.length > 0) {
    writeFileSync(file, JSON.stringify({ ...map, sources, sourcesContent: undefined, mappings: lines.join(';') }));
    return;
  }
  rmSync(file);
  writeFileSync(js, readFileSync(js, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\n?$/, '\n'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
}
