// The identification error screens' titles, texts and buttons (identification-routing-creation §2 table, §8), rendered with the
// English catalogue; an unknown error falls back to the try-again screen.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { knownIdentificationError } from '../../server/stages/identification/identificationErrorPage.tsx';
import { IdentificationErrorPage, type ErrorAction } from '../../views/pages/IdentificationErrorPageView.tsx';
import type { IdentificationError } from '../../shared/routing.ts';

const t = createI18n(loadCatalogues()).translator('en');
const decode = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

// The last column: the screen's frame. Having an account already and being a minor are information.
const table: [IdentificationError, string, string | null, string | null, 'error' | 'info'][] = [
  ['MANUAL_SUPPORT_ERROR', 'You need to provide additional information', null, 'Submit more information', 'error'],
  ['BLOCK_CUSTOMER_ERROR', "Your application can't be approved at this moment", 'This may be because you were a former customer.', null, 'error'],
  ['TRY_AGAIN_ERROR', 'Something went wrong', 'Please try again. If the problem persists, contact customer service.', 'Try again', 'error'],
  ['MINOR_ERROR', 'Information for you as a minor', null, 'Continue', 'info'],
  ['LOGIN_ERROR', 'You already have an account', 'It looks like you already have an account. Try to login instead.', 'Continue', 'info'],
];

describe('identification error screens', () => {
  it.each(table)('%s', (error, title, text, button, frame) => {
    const action: ErrorAction | null = button ? { label: t(`identificationError.${error}.button`), href: '/x' } : null;
    const html = decode(renderToStaticMarkup(<IdentificationErrorPage t={t} error={error} action={action} />));
    expect(html).toContain(`<section class="result result--${frame}" aria-labelledby="error-title">`);
    expect(html).toContain(`<h1 id="error-title">${title}</h1>`);
    if (text) expect(html).toContain(text);
    if (button) expect(html).toContain(`>${button}</a>`);
    else expect(html).not.toContain('<a');
  });

  it.each([
    ['LOGIN_ERROR', 'LOGIN_ERROR'],
    ['SOMETHING_NEW', 'TRY_AGAIN_ERROR'],
    ['', 'TRY_AGAIN_ERROR'],
  ])('stored error %j shows %s', (stored, shown) => {
    expect(knownIdentificationError(stored)).toBe(shown);
  });
});
