// Client build: one browser bundle per island in client/islands/ (each hydrates a component from views/), React and
// react-dom in a chunk of their own, the hashed stylesheet, and
// public/build/manifest.json telling server/render.tsx which files a page using an island needs.
//   node esbuild.config.mjs [--quiet] [--watch]
// In --watch mode a new island file needs a restart (entries are listed once at start).
import * as esbuild from 'esbuild';
import { readdir, rm, mkdir, readFile, writeFile, unlink } from 'node:fs/promises';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const islandsDir = path.join(root, 'client/islands');
const outdir = path.join(root, 'public/build');
const stylesheet = 'public/styles.css';
const publicPath = '/build/';
const quiet = process.argv.includes('--quiet');
const watch = process.argv.includes('--watch');

// An island's file is <name>Island.tsx, whose default export is the component from views/ that the browser hydrates
// (docs/islands.md); <name> names its bundle and the data-island marker the server renders.
const islandFiles = (await readdir(islandsDir)).filter((f) => /\.tsx?$/.test(f));
for (const file of islandFiles) {
  if (!/Island\.tsx$/.test(file)) throw new Error(`An island file's name ends in Island.tsx: client/islands/${file}`);
}
const islandFileOf = new Map(islandFiles.map((f) => [f.replace(/Island\.tsx$/, ''), f]));
const islandNames = [...islandFileOf.keys()].sort();
for (const name of islandNames) {
  // The name becomes a CSS selector, a file name and a JS string in the virtual entry.
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new Error(`Island file name must be an identifier: ${islandFileOf.get(name)}`);
}

// Each entry is generated rather than written by hand, so an island file is just its component.
const islandEntries = {
  name: 'island-entries',
  setup(build) {
    build.onResolve({ filter: /^island:/ }, (args) => ({ path: args.path.slice('island:'.length), namespace: 'island' }));
    build.onLoad({ filter: /.*/, namespace: 'island' }, (args) => {
      const file = islandFileOf.get(args.path);
      return {
        contents: [
          `import island from './${file}';`,
          `import { hydrateIslands } from '../hydrate.tsx';`,
          `hydrateIslands(${JSON.stringify(args.path)}, island);`,
        ].join('\n'),
        resolveDir: islandsDir,
        loader: 'tsx',
      };
    });
  },
};

const writeManifest = {
  name: 'manifest',
  setup(build) {
    build.onStart(() => {
      if (!quiet) console.log('building client…');
    });
    build.onEnd(async (result) => {
      if (result.errors.length > 0 || !result.metafile) return;
      const outputs = result.metafile.outputs;
      const url = (file) => publicPath + path.relative(outdir, path.join(root, file)).split(path.sep).join('/');
      // Transitive static imports: everything the browser fetches before the island can run.
      const staticImports = (file, seen = new Set()) => {
        for (const imp of outputs[file]?.imports ?? []) {
          if (imp.kind === 'import-statement' && !imp.external && !seen.has(imp.path)) {
            seen.add(imp.path);
            staticImports(imp.path, seen);
          }
        }
        return seen;
      };
      // What the island imports once it runs (afterPageLoad, client/components/afterPageLoad.ts), with their own
      // static imports: off the page's critical path, so not part of the JavaScript before the island runs.
      const lazyImports = (file, before) => {
        const lazy = new Set();
        for (const from of [file, ...before]) {
          for (const imp of outputs[from]?.imports ?? []) {
            if (imp.kind !== 'dynamic-import' || imp.external) continue;
            for (const lazyFile of [imp.path, ...staticImports(imp.path)]) if (!before.has(lazyFile) && lazyFile !== file) lazy.add(lazyFile);
          }
        }
        return lazy;
      };

      const manifest = { islands: {} };
      const sizes = [];
      for (const [file, output] of Object.entries(outputs)) {
        if (output.entryPoint?.startsWith('island:')) {
          const name = output.entryPoint.slice('island:'.length);
          const before = staticImports(file);
          const imports = [...before];
          const lazy = [...lazyImports(file, before)];
          manifest.islands[name] = { file: url(file), imports: imports.map(url), ...(lazy.length > 0 ? { lazy: lazy.map(url) } : {}) };
          sizes.push({ name, files: [file, ...imports] });
        } else if (output.entryPoint === stylesheet) {
          manifest.css = url(file);
        }
        // React and react-dom: every island imports them (client/hydrate.tsx), so they land in one shared chunk, which
        // the start page prefetches so that the first island page of a visit finds it cached.
        if (!output.entryPoint && Object.keys(output.inputs).some((input) => input.startsWith('node_modules/react-dom/'))) {
          if (manifest.react) throw new Error('react-dom is split over two chunks: every island must import it (client/hydrate.tsx)');
          manifest.react = url(file);
        }
      }
      await writeFile(path.join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

      // Each file also compressed beside itself, once, at the strongest settings: server/app.ts sends the .br or
      // .gz the browser takes instead of compressing per request.
      const compressed = [];
      for (const file of Object.keys(outputs)) {
        const bytes = await readFile(path.join(root, file));
        const brotli = brotliCompressSync(bytes, {
          params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        });
        await writeFile(path.join(root, `${file}.br`), brotli);
        await writeFile(path.join(root, `${file}.gz`), gzipSync(bytes, { level: 9 }));
        compressed.push(`${file}.br`, `${file}.gz`);
      }

      // In watch mode every rebuild writes new hashes; drop what the current build no longer uses.
      const keep = new Set([...[...Object.keys(outputs), ...compressed].map((f) => path.join(root, f)), path.join(outdir, 'manifest.json')]);
      for (const f of await readdir(outdir)) {
        if (!keep.has(path.join(outdir, f))) await unlink(path.join(outdir, f)).catch(() => {});
      }

      if (!quiet) await printSizes(sizes, manifest.css);
    });
  },
};

async function printSizes(rows, css) {
  const measure = async (files) => {
    let raw = 0;
    let gzip = 0;
    for (const f of files) {
      const bytes = await readFile(path.join(root, f));
      raw += bytes.length;
      // Per file: each is a separate request, compressed on its own.
      gzip += gzipSync(bytes, { level: 9 }).length;
    }
    return { raw, gzip };
  };
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const table = [];
  for (const row of rows.sort((a, b) => a.name.localeCompare(b.name))) {
    const { raw, gzip } = await measure(row.files);
    table.push({ island: row.name, files: row.files.length, raw: `${raw} (${kb(raw)})`, gzip: `${gzip} (${kb(gzip)})` });
  }
  if (css) {
    const { raw, gzip } = await measure([path.relative(root, path.join(outdir, path.basename(css)))]);
    table.push({ island: '(styles.css)', files: 1, raw: `${raw} (${kb(raw)})`, gzip: `${gzip} (${kb(gzip)})` });
  }
  console.log('JS per island page, entry + static imports (bytes):');
  console.table(table);
}

/** @type {import('esbuild').BuildOptions} */
const options = {
  absWorkingDir: root,
  entryPoints: [
    ...islandNames.map((name) => ({ in: `island:${name}`, out: name })),
    { in: stylesheet, out: 'styles' },
    { in: 'client/react.ts', out: 'react' },
  ],
  bundle: true,
  format: 'esm',
  // Shared code (React above all) lands in common chunks that the browser caches across pages.
  splitting: true,
  minify: true,
  sourcemap: false,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Old in-app browsers and iOS 14 Safari are still among our users.
  target: ['es2020', 'safari14'],
  // esbuild >= 0.28 marks destructuring unsupported below Safari 14.1 (a WebKit bug with array rest
  // patterns such as `[a, ...rest]`, evanw/esbuild#4436) and cannot lower it, so it would refuse the
  // build. Emit destructuring as esbuild 0.27 did; the islands avoid array rest patterns.
  supported: { destructuring: true },
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  outdir,
  metafile: true,
  logLevel: quiet ? 'error' : 'warning',
  plugins: [islandEntries, writeManifest],
};

// Start clean so stale hashed files can never be served by mistake.
await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  if (!quiet) console.log('watching client/ and public/styles.css…');
} else {
  const result = await esbuild.build(options);
  if (result.errors.length > 0) process.exit(1);
}
