// File names as the pages show them (views/components/FileName.tsx): a line may break only after a separator, so a
// long name never wraps in the middle of a word; the status page's sent list and the upload lists use it.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { FileName, fileNameParts } from '../../views/components/FileName.tsx';
import { CaseStatusPageView } from '../../views/pages/CaseStatusPageView.tsx';

describe('fileNameParts', () => {
  it.each([
    ['lease.pdf', ['lease.', 'pdf']],
    ['bank_statement-2026_05.pdf', ['bank_', 'statement-', '2026_', '05.', 'pdf']],
    ['my scan  (1).jpg', ['my ', 'scan  ', '(1).', 'jpg']],
    ['__init.pdf', ['__', 'init.', 'pdf']],
    ['', []],
  ])('%s', (name, parts) => {
    expect(fileNameParts(name)).toEqual(parts);
    expect(fileNameParts(name).join('')).toBe(name);
  });
});

describe('FileName', () => {
  it('marks the break points with <wbr> and keeps the name whole as text', () => {
    expect(renderToStaticMarkup(<FileName name="bank_statement-2026.pdf" />)).toBe('<span class="file-name">bank_<wbr/>statement-<wbr/>2026.<wbr/>pdf</span>');
  });

  it('the status page lists each sent file with its break points', () => {
    const html = renderToStaticMarkup(
      <CaseStatusPageView
        t={(key) => key}
        stepTwo="inProgress"
        forms={[]}
        others={[]}
        sent={[{ id: 'task-1', type: 'RESIDENCY', files: ['proof_of_address-2026.pdf', 'lease.pdf'] }]}
        justSent={false}
        taskAction="/a"
        returnAction="/r"
      />,
    );
    expect(html).toContain(
      '<span class="case-sent__files"><span class="file-name">proof_<wbr/>of_<wbr/>address-<wbr/>2026.<wbr/>pdf</span>, <span class="file-name">lease.<wbr/>pdf</span></span>',
    );
  });
});
