// Every repository path the README and docs/ name in backticks exists, and so does every file they link to, so the docs
// cannot go stale silently when a file moves. A backticked path is written from the repository root (a link from the
// document's folder); generated output (dist/, public/build/, test-results/) is not checked.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFilesUnder, repoRoot as root } from '../support/repoFiles.ts';

const generated = ['dist/', 'public/build/', 'test-results/'];
const topFolders = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !['node_modules', '.git', 'dist'].includes(e.name))
  .map((e) => e.name);

/** The words of the inline code spans outside fenced blocks that look like repository paths. */
export function pathsNamedIn(markdown: string): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced || /^\s*```/.test(line)) continue;
    for (const span of line.matchAll(/`([^`]+)`/g)) {
      for (const raw of span[1]!.split(/[\s,]+/)) {
        const word = raw.replace(/^[([]+/, '').replace(/[):;,.\]]+$/, '');
        // Routes, URLs, parent folders and placeholders are not repository paths.
        if (!word || /^(\/|\.\.)/.test(word) || word.includes('://') || /[…*<>{}]/.test(word)) continue;
        const hasExtension = word.includes('/') && /\.[a-z]{1,5}$/i.test(word);
        if (hasExtension || topFolders.some((f) => word.startsWith(`${f}/`))) found.push(word);
      }
    }
  }
  return found;
}

/** The paths a markdown text names that the repository does not hold. */
export function missingPaths(markdown: string): string[] {
  return pathsNamedIn(markdown).filter((p) => !generated.some((g) => p.startsWith(g)) && !existsSync(join(root, p)));
}

/** The relative link targets of a markdown text (`[text](target)`), without their #fragment. */
export function linksIn(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!.split('#')[0]!).filter((t) => t && !/^[a-z]+:/.test(t));
}

const docsFiles = () => ['README.md', ...repoFilesUnder(['docs'], /\.md$/)];

describe('paths named in the README and docs/', () => {
  it.each(docsFiles())('%s names only paths that exist', (file) => {
    expect(missingPaths(readFileSync(join(root, file), 'utf8'))).toEqual([]);
  });

  it.each(docsFiles())('%s links only to files that exist', (file) => {
    const folder = dirname(join(root, file));
    expect(linksIn(readFileSync(join(root, file), 'utf8')).filter((t) => !existsSync(join(folder, t)))).toEqual([]);
  });

  it('finds a made-up path, and takes no route, URL or fenced code for one', () => {
    const fixture = [
      'The rule is in `shared/kyc.ts` and `server/nowhere/madeUp.ts`; the folder `server/infra/` holds Redis.',
      'Streams at `/onboarding/customer-creation/:prospectId/events`, the sandbox at `http://127.0.0.1:3001/x.js`,',
      'a package `zod/mini`, a placeholder `views/pages/…PageView.tsx`, and `server/main.ts web` as a command.',
      '```',
      'views/components/NotChecked.tsx',
      '```',
    ].join('\n');
    expect(pathsNamedIn(fixture)).toEqual(['shared/kyc.ts', 'server/nowhere/madeUp.ts', 'server/infra/', 'server/main.ts']);
    expect(missingPaths(fixture)).toEqual(['server/nowhere/madeUp.ts']);
    expect(linksIn('See [the sandbox](docs/sandbox.md#test-controls), [a site](https://example.com) and [x](nope.md).')).toEqual([
      'docs/sandbox.md',
      'nope.md',
    ]);
  });
});
