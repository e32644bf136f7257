// docs/benchmarks.md is written by three commands: `npm run bench` writes the document, `npm run bench:peak` its
// "## At peak" section and `npm run soak` its "## Chaos soak" section. Each keeps what the others wrote: a section
// runs from its level-2 heading to the next level-2 heading (its own ### parts stay with it) or the end.

/** Level-2 headings of the sections other commands write, in the order they follow the main report. */
export const KEPT_SECTIONS = ['At peak', 'Chaos soak'] as const;

/** Where the section headed `## <heading>…` starts (the newline before it), or -1. */
const startOf = (document: string, heading: string): number => document.indexOf(`\n## ${heading}`);

/** The section headed `## <heading>…` (heading line included, trimmed), or '' when the document has none. */
export function sectionOf(document: string, heading: string): string {
  const at = startOf(document, heading);
  if (at === -1) return '';
  const rest = document.slice(at + 1);
  const next = rest.indexOf('\n## ');
  return (next === -1 ? rest : rest.slice(0, next)).trim();
}

/** The document without its kept sections (the main report). */
function mainOf(document: string): string {
  const starts = KEPT_SECTIONS.map((h) => startOf(document, h)).filter((at) => at !== -1);
  return (starts.length ? document.slice(0, Math.min(...starts)) : document).trimEnd();
}

/**
 * `document` with its main report replaced by `main` (when given) and the section `heading` by `section` (when
 * given); the other kept sections stay, in KEPT_SECTIONS order after the main report.
 */
export function withSections(document: string, changes: { main?: string; sections?: Partial<Record<(typeof KEPT_SECTIONS)[number], string>> }): string {
  const parts = [changes.main?.trim() ?? mainOf(document)];
  for (const heading of KEPT_SECTIONS) {
    const section = changes.sections?.[heading] ?? sectionOf(document, heading);
    if (section.trim()) parts.push(section.trim());
  }
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}

/**
 * A part of a section that this run did not measure (`bench:peak --only …`), kept from the section as the last run
 * wrote it: its `### <heading>…` subsection, saying whose figures they are, and its rows of the targets table (those
 * whose target matches `targets`), each marked with that run's date. Empty when the last run had no such part.
 */
export function keptPart(section: string, heading: string, targets: RegExp): { text: string; rows: string[][] } {
  const at = section.indexOf(`\n### ${heading}`);
  if (at === -1) return { text: '', rows: [] };
  const rest = section.slice(at + 1);
  const ends = [rest.indexOf('\n### '), rest.indexOf('\n| target ')].filter((i) => i !== -1);
  const part = (ends.length ? rest.slice(0, Math.min(...ends)) : rest).trim();
  const [title, ...body] = part.split('\n');
  const date = /Run: (\d{4}-\d{2}-\d{2})/.exec(section)?.[1] ?? 'an earlier run';
  const note = /^Not run this time/.test(body.join('\n').trim()) ? [] : ['', `Not run this time: the ${date} run’s figures, kept.`];
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| target ') && !/^\| -/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .filter(([target]) => target !== undefined && targets.test(target))
    .map(([target = '', actual = '', verdict = '']) => [/\(\d{4}-\d{2}-\d{2}\)$/.test(target) ? target : `${target} (${date})`, actual, verdict]);
  return { text: [title, ...note, ...body].join('\n').trim(), rows };
}
