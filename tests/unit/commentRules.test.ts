// Comments a newcomer can read: a file's opening comment says what it is and why in at most five lines, no comment
// block runs to ten lines (longer reasoning lives in docs/), and no comment cites an issue number (say what it is).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFilesUnder, repoRoot } from '../support/repoFiles.ts';

const folders = ['server', 'views', 'client', 'shared', 'workers', 'sandbox', 'tests', 'bench', 'scripts'];

/** Each comment block of `lines`: its first line's index and how many lines it spans. */
function commentBlocks(lines: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i]!.trim();
    let end = i;
    if (line.startsWith('//')) while (end < lines.length && lines[end]!.trim().startsWith('//')) end++;
    else if (line.startsWith('/*')) {
      while (end < lines.length && !lines[end]!.includes('*/')) end++;
      end++;
    } else {
      i++;
      continue;
    }
    found.push([i, end - i]);
    i = end;
  }
  return found;
}

/** The rule's breaches in one file's `text`, one line each (`name` names the file). */
export function commentBreaches(name: string, text: string): string[] {
  const lines = text.split('\n');
  const breaches: string[] = [];
  lines.forEach((line, n) => {
    if (/(\/\/|\/\*|^\s*\*).*(\bissues? \d+|#\d{2,}\b)/i.test(line)) breaches.push(`${name}:${n + 1} cites an issue number`);
  });
  let first = 0;
  while (first < lines.length && (lines[first]!.startsWith('#!') || lines[first]!.trim() === '')) first++;
  for (const [start, length] of commentBlocks(lines)) {
    if (start === first && length > 5) breaches.push(`${name}:${start + 1} opening comment of ${length} lines`);
    else if (length >= 10) breaches.push(`${name}:${start + 1} comment block of ${length} lines`);
  }
  return breaches;
}

const sourceFiles = () => repoFilesUnder(folders, /\.(ts|tsx|mjs)$/);

describe('comments a newcomer can read', () => {
  it('every source file keeps the rule', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(300);
    expect(files.flatMap((file) => commentBreaches(file, readFileSync(join(repoRoot, file), 'utf8')))).toEqual([]);
  });

  it.each([
    ['an issue number', `// Bound once (${'issue'} 24 item 2).\nconst a = 1;\n`, /cites an issue number/],
    ['an issue reference', `const a = 1; // see ${'#'}23\n`, /cites an issue number/],
    ['a long opening comment', `${'// line\n'.repeat(6)}import x from 'y';\n`, /opening comment of 6 lines/],
    ['a long block further down', `const a = 1;\n/**\n${' * line\n'.repeat(9)} */\n`, /comment block of 11 lines/],
  ])('refuses %s', (_name, text, breach) => {
    expect(commentBreaches('f.ts', text).join('\n')).toMatch(breach);
  });

  it('accepts short comments', () => {
    expect(commentBreaches('f.ts', '// What it is and why.\nimport x from "y";\n// A note.\nconst a = 1;\n')).toEqual([]);
  });
});
