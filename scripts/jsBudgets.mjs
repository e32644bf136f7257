// JavaScript budgets per page (issue 23 item 4), checked by `npm run bench`, never by `npm test`:
//   node scripts/jsBudgets.mjs [--json]        (after the client build: node esbuild.config.mjs)
// A page fetches, before its islands run, the entry of each island it rendered plus their static imports
// (public/build/manifest.json, what server/render.tsx puts in the head); a dynamic import (the phone rules,
// the creation events' schema) is not on that path. Each page is measured as the union of those files, each
// file gzip'ed on its own (the .gz the build wrote beside it, what a gzip browser is sent; .br beside it too).
// Every customer-information page also carries the exit dialog, so each island is measured with it as well.
// Budgets: a page whose islands are all plain DOM (client/islands/<name>Island.ts: dialogs and other
// enhancements without React) ≤ 10 KB gzip; every page ≤ 75 KB gzip. Exits 1 when a page is over its budget.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KB = 1000;
export const BUDGETS = { plainDom: 10 * KB, any: 75 * KB };
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
const plainDom = (name) => existsSync(path.join(root, 'client/islands', `${name}Island.ts`));

function measure(islands) {
  const files = [...filesOf(islands)];
  const sum = (suffix) => files.reduce((total, url) => total + size(fileOf(url) + suffix), 0);
  const budget = islands.every(plainDom) ? BUDGETS.plainDom : BUDGETS.any;
  const gzip = sum('.gz');
  return { page: islands.join(' + '), files: files.length, raw: sum(''), gzip, brotli: sum('.br'), budget, over: gzip > budget };
}

const names = Object.keys(manifest.islands).sort();
const rows = [];
for (const name of names) {
  rows.push(measure([name]));
  if (name !== EXIT_DIALOG) rows.push(measure([name, EXIT_DIALOG]));
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const kb = (n) => (n / KB).toFixed(1);
  console.log('JS per page before its islands run (entry + static imports; KB = 1000 bytes):');
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
for (const r of over) console.error(`over budget: ${r.page} ships ${r.gzip} bytes gzip, budget ${r.budget}`);
process.exit(over.length > 0 ? 1 : 0);
