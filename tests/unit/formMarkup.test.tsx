// The markup the Nu HTML Checker and HTML_CodeSniffer judged on the contact and residency forms. Every autocomplete
// names an autofill field the HTML standard allows on that control (WHATWG HTML "Autofill", its control groups; the Nu
// checker enforces it): it refused `tel-national` on <input type=tel> (group Text: text-like inputs only) and
// `street-address` on a one-line input (group Multiline: textarea, select or hidden only).
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { ContactInformationForm } from '../../views/components/ContactInformationForm.tsx';
import { suggestEmail } from '../../shared/emailAddress.ts';
import { ResidencyAddressForm } from '../../views/pages/ResidencyStepView.tsx';

const t = createI18n(loadCatalogues()).translator('en');

// The control group of each autofill field name these forms could use, and the input types each group allows
// (WHATWG HTML, "autofill field name" table; select and textarea take every group).
const groupOf: Record<string, 'Text' | 'Multiline' | 'Tel' | 'E-mail'> = {
  'street-address': 'Multiline',
  'address-line1': 'Text',
  'address-line2': 'Text',
  'address-level2': 'Text',
  'postal-code': 'Text',
  country: 'Text',
  'tel-country-code': 'Text',
  'tel-national': 'Text',
  tel: 'Tel',
  email: 'E-mail',
  'given-name': 'Text',
  'family-name': 'Text',
};
const inputTypesOf: Record<string, readonly string[]> = {
  Text: ['hidden', 'text', 'search'],
  Multiline: ['hidden'],
  Tel: ['hidden', 'text', 'search', 'tel'],
  'E-mail': ['hidden', 'text', 'search', 'email'],
};

/** Each input's type and autocomplete that the standard does not allow together. */
function refused(html: string): string[] {
  return [...html.matchAll(/<input\b[^>]*>/g)].flatMap(([tag]) => {
    const token = /autoComplete="([^"]*)"|autocomplete="([^"]*)"/i.exec(tag);
    const name = token?.[1] ?? token?.[2];
    if (!name || name === 'off' || name === 'on') return [];
    const type = /\btype="([^"]*)"/.exec(tag)?.[1] ?? 'text';
    const group = groupOf[name];
    return group && inputTypesOf[group]!.includes(type) ? [] : [`${name} on <input type=${type}>`];
  });
}

/** The contact form as the server renders it, with `email` typed. */
const contactForm = (email: string) =>
  renderToStaticMarkup(
    <ContactInformationForm
      action="/x"
      screenFields={{ step: 'CONTACT_INFORMATION_STEP', screen: 'form' }}
      values={{ prefix: '46', phone: '701234567', email }}
      // As the server passes it (server/stages/customerInformation/steps/contactInformationStep.tsx).
      suggestion={suggestEmail(email)}
      errors={{}}
      suggestionShownFor=""
      prefixes={[{ prefix: '46', label: 'Sweden +46' }]}
      texts={{
        phoneLabel: 'Phone',
        prefixLabel: 'Prefix',
        emailLabel: 'E-mail',
        continue: 'Continue',
        errorSummary: 'There is a problem',
        suggestion: ['Did you mean ', '?'],
        errors: { email: 'e', phone: 'p', phoneMissingPlus: 'p+', emailApi: 'ea', phoneApi: 'pa' },
      }}
    />,
  );

describe('autofill field names fit their controls', () => {
  it('the contact form: the phone number without its prefix', () => {
    const html = contactForm('a@example.com');
    expect(html).toMatch(/autocomplete="tel-national"/i);
    expect(refused(html)).toEqual([]);
  });

  it('the residency address: one line for the street', () => {
    const html = renderToStaticMarkup(
      <ResidencyAddressForm
        t={t}
        action="/x"
        fields={{ step: 'RESIDENCY_STEP', screen: 'address' }}
        options={[{ value: 'DE', label: 'Germany' }]}
        values={{}}
      />,
    );
    expect(html).toMatch(/<input[^>]*name="address"/);
    expect(refused(html)).toEqual([]);
  });
});

describe('forms', () => {
  // HTML_CodeSniffer (WCAG2AA, H32.2) wants a submit button inside every form; the e-mail suggestion used to
  // post through a hidden form of its own whose button stood in the other form.
  it('the contact form with an e-mail suggestion shown: one form, its buttons inside it', () => {
    const html = contactForm('a@gmial.com');
    expect(html).toMatch(/<button[^>]*value="a@gmail.com"[^>]*name="useSuggestion"/);
    const forms = [...html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/g)];
    expect(forms.map(([, inside]) => /<button[^>]*type="submit"/.test(inside!))).toEqual([true]);
    expect(html).not.toMatch(/<form\b[^>]*\bhidden/);
    expect(html).not.toMatch(/<button[^>]*\bform="/);
  });
});
