// The client build the tests run against: the one `npm test` makes before any test file starts (pretest), built
// here only when it is missing (a test file run on its own in a fresh clone). Never rebuilt while files run side by
// side: a build starts by removing public/build (esbuild.config.mjs), which took the islands and the manifest from
// under the other files' servers and pages.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadManifest, type Manifest } from '../../server/render.tsx';

const root = path.resolve(import.meta.dirname, '../..');
export const clientManifestPath = path.join(root, 'public/build/manifest.json');

export function clientBuildManifest(): Manifest {
  if (!existsSync(clientManifestPath)) execFileSync(process.execPath, ['esbuild.config.mjs', '--quiet'], { cwd: root, stdio: 'inherit' });
  return loadManifest(clientManifestPath);
}
