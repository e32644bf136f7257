// The server build keeps no function's name (esbuild.server.mjs: keepNames costs every closure a defineProperty), so
// the bundler's renaming shows: where two modules' names collide it appends a digit. An error's type in the logs is its
// class's name (server/logger.ts), so no class of ours may be renamed. Reads the build the run's global setup made.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFilesUnder, repoRoot } from '../support/repoFiles.ts';

/** The names of the classes the sources declare. */
export function classNamesIn(sources: readonly string[]): Set<string> {
  return new Set(sources.flatMap((text) => [...text.matchAll(/\bclass\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!)));
}

/** The bundle's classes that are one of `own` renamed: `class Name2`, `Name2 = class`. */
export function renamedClasses(bundle: string, own: ReadonlySet<string>): string[] {
  const renamed = new Set<string>();
  for (const m of bundle.matchAll(/\bclass\s+([A-Za-z_$][\w$]*?)(\d+)\b|\b([A-Za-z_$][\w$]*?)(\d+)\s*=\s*class\b/g)) {
    const base = m[1] ?? m[3]!;
    const name = base + (m[2] ?? m[4]!);
    if (own.has(base) && !own.has(name)) renamed.add(`${base} → ${name}`);
  }
  return [...renamed];
}

describe('the server build', () => {
  it('keeps the name of every class of ours (error types in the logs)', () => {
    // Not the declaration files: they describe packages' classes (a package's class may be renamed: nothing logs it).
    const sources = repoFilesUnder(['server', 'shared', 'workers', 'views', 'sandbox'], /(?<!\.d)\.tsx?$/);
    const own = classNamesIn(sources.map((f) => readFileSync(join(repoRoot, f), 'utf8')));
    expect(own.has('UpstreamError'), 'the sources were read').toBe(true);
    const dist = join(repoRoot, 'dist');
    const bundles = readdirSync(dist).filter((f) => f.endsWith('.js'));
    expect(bundles).toContain('server.js');
    const renamed = bundles.flatMap((f) => renamedClasses(readFileSync(join(dist, f), 'utf8'), own).map((r) => `${f}: ${r}`));
    expect(renamed).toEqual([]);
  });

  it('sees a class the bundler renamed, declared or assigned', () => {
    const own = classNamesIn(['export class UpstreamError extends Error {}', 'class Job2 {}']);
    expect(renamedClasses('class UpstreamError2 extends Error{}', own)).toEqual(['UpstreamError → UpstreamError2']);
    expect(renamedClasses('var a=1,UpstreamError3 = class extends Error{}', own)).toEqual(['UpstreamError → UpstreamError3']);
    expect(renamedClasses('class UpstreamError extends Error{} class Job2{} class Other2{}', own)).toEqual([]);
  });
});
