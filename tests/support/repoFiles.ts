// The repository's own files, for the unit tests that hold every file to a house rule (file names, comments,
// paths named in the docs): one walker, so that each rule reads the same set of files.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder, ending in a slash. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The repository-relative paths (with `/`) of the files under `folders` whose names match `name`, in a stable order. */
export function repoFilesUnder(folders: readonly string[], name: RegExp): string[] {
  return folders.flatMap((folder) =>
    readdirSync(join(repoRoot, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && name.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name).slice(repoRoot.length).split('\\').join('/'))
      .sort(),
  );
}
