// A file name as text: it may wrap after its separators ("bank_statement-2026.pdf" after "_", "-" and "."), never
// inside a word by the page's hyphenation; a part longer than the line still breaks (overflow-wrap in styles.css).
import { Fragment } from 'react';

/** The name cut after each run of separators (_ - . and spaces): where a line may break. */
export const fileNameParts = (name: string): string[] => name.match(/[^_\-.\s]+[_\-.\s]*|[_\-.\s]+/g) ?? [];

export function FileName({ name, className }: { name: string; className?: string }) {
  return (
    <span className={className ? `file-name ${className}` : 'file-name'}>
      {fileNameParts(name).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
