// JavaScript budgets per page, checked by `npm run bench`, never by `npm test` (after `node esbuild.config.mjs`):
//   node scripts/jsBudgets.mjs [--json]
// What a page fetches before its islands run (each island's entry and its static imports, counted as the .br beside it):
// the shared React chunk ≤ 60 KB brotli, a page's own island code ≤ 12 KB (measured with the exit dialog every
// customer-information page carries). Exits 1 when anything is over its budget.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KB = 1000;
export const BUDGETS = { react: 60 * KB, ownCode: 12 * KB };
/** The island every customer-information page renders (the exit dialog, customer-information §2.2). */
const EXIT_DIALOG = 'dialog';

const manifestPath = path.join(root, 'public/build/manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`No client build at ${manifestPath}: run node esbuild.config.mjs first`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const fileOf = (url) => path.join(root, 'public', url);
const size = (file) => statSync(file).size;

/** The files a page with these islands fetches before they run (entries and static imports, each once). */
const filesOf = (islands) => new Set(islands.flatMap((name) => [manifest.islands[name].file, ...manifest.islands[name].imports]));
const brotli = (url) => size(fileOf(url) + '.br');

function measure(islands) {
  const files = [...filesOf(islands)].filter((url) => url !== manifest.react);
  const sum = (suffix) => files.reduce((total, url) => total + size(fileOf(url) + suffix), 0);
  const own = sum('.br');
  return { page: islands.join(' + '), files: files.length, raw: sum(''), gzip: sum('.gz'), brotli: own, budget: BUDGETS.ownCode, over: own > BUDGETS.ownCode };
}

if (!manifest.react) {
  console.error('The client build names no React chunk (manifest.react)');
  process.exit(2);
}
const rows = [
  {
    page: '(React and react-dom, shared)',
    files: 1,
    raw: size(fileOf(manifest.react)),
    gzip: size(fileOf(manifest.react) + '.gz'),
    brotli: brotli(manifest.react),
    budget: BUDGETS.react,
    over: brotli(manifest.react) > BUDGETS.react,
  },
];
for (const name of Object.keys(manifest.islands).sort()) {
  rows.push(measure([name]));
  if (name !== EXIT_DIALOG) rows.push(measure([name, EXIT_DIALOG]));
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const kb = (n) => (n / KB).toFixed(1);
  console.log('JS per page before its islands run, besides the React chunk (entry + static imports; KB = 1000 bytes):');
  console.table(
    rows.map((r) => ({
      page: r.page,
      files: r.files,
      'raw KB': kb(r.raw),
      'gzip KB': kb(r.gzip),
      'br KB': kb(r.brotli),
      'budget KB': kb(r.budget),
      '': r.over ? 'OVER' : 'ok',
    })),
  );
}
const over = rows.filter((r) => r.over);
for (const r of over) console.error(`over budget: ${r.page} ships ${r.brotli} bytes brotli, budget ${r.budget}`);
process.exit(over.length > 0 ? 1 : 0);
