// The client build the tests run against: the one every run makes before any test file starts (globalSetup.ts).
// Never rebuilt while files run side by side: a build starts by removing public/build (esbuild.config.mjs), which took
// the islands and the manifest from under the other files' servers and pages.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { loadManifest, type Manifest } from '../../server/render.tsx';

const root = path.resolve(import.meta.dirname, '../..');
export const clientManifestPath = path.join(root, 'public/build/manifest.json');

export function clientBuildManifest(): Manifest {
  return loadManifest(clientManifestPath);
}

/** The built JavaScript files the page fetches from now on. */
export function scriptsOf(page: Page): () => string[] {
  const files = new Set<string>();
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/^\/build\/[\w.-]+\.js$/.test(pathname)) files.add(pathname);
  });
  return () => [...files];
}

/**
 * Reloads `page` with the island `name`'s script held back until the returned function is called (the page shown, the
 * script not yet run: for what a person does before it runs).
 */
export async function reloadWithScriptHeld(page: Page, name: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(new RegExp(`/build/${name}-[\\w-]+\\.js$`), async (route) => {
    await held;
    await route.continue();
  });
  await page.reload({ waitUntil: 'commit' });
  return release;
}

/**
 * The page, loaded again, fetches only the files of `islands` (their entries, what they import, React's shared chunk
 * among them, and what they import once they run), and each of them hydrates (its `island:<name>` mark,
 * client/hydrate.tsx, as the bench counts it).
 */
export async function expectIslandsHydrated(page: Page, islands: string[]): Promise<void> {
  const manifest = clientBuildManifest();
  const scripts = scriptsOf(page);
  await page.reload();
  const allowed = new Set(
    islands.flatMap((name) => [manifest.islands[name]!.file, ...manifest.islands[name]!.imports, ...(manifest.islands[name]!.lazy ?? [])]),
  );
  for (const name of islands) await expect.poll(() => page.evaluate((mark) => performance.getEntriesByName(mark).length, `island:${name}`)).toBe(1);
  expect(scripts().filter((f) => !allowed.has(f))).toEqual([]);
}
