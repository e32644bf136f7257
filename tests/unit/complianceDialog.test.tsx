// The compliance dialogs' builder (customer-information.md §2.3 "Compliance dialogs", §4.7), rendered with
// the English catalogue as the no-JS screen (Dialog) and as the modal (ModalDialog): title, text, actions,
// and the external manual form link with exit=<TYPE> for FATCA, RESIDENCY, CITIZENSHIP and PEP.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { supportedLocales } from '../../shared/i18n.ts';
import { sensitiveAnswerDialogTypes, type SensitiveAnswerDialogType } from '../../shared/complianceDialogTypes.ts';
import { complianceDialogProps, type ComplianceDialogOptions } from '../../views/components/ComplianceDialog.tsx';
import { Dialog, ModalDialog } from '../../views/components/Dialog.tsx';

const catalogues = loadCatalogues();
const i18n = createI18n(catalogues);
const t = i18n.translator('en');
const BASE = 'https://forms.example.com/additional-information';
const ACTION = '/onboarding/customer-information/p-1/step';

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

interface Action {
  kind: 'post' | 'close' | 'link';
  label: string;
  className: string;
  fields?: Record<string, string>;
  href?: string;
}

/** What a rendered dialog shows: heading, paragraphs, links besides the actions, and the actions. */
function read(html: string, id: string) {
  const heading = new RegExp(`<h([12]) id="${id}-title" class="dialog__title">([^<]*)</h\\1>`).exec(html);
  const text = new RegExp(`<div id="${id}-text">(.*?)</div>`).exec(html)?.[1] ?? '';
  const [content = '', actionsHtml = ''] = html.split('<div class="actions dialog__actions">');
  const links = [...content.matchAll(/<p><a href="([^"]*)">([^<]*)<\/a><\/p>/g)].map((m) => ({ href: decode(m[1]!), label: decode(m[2]!) }));
  const actions: Action[] = [];
  const control =
    /<form action="([^"]*)" method="post">((?:<input type="hidden" name="[^"]*" value="[^"]*"\/>)*)<button type="submit" class="([^"]*)">([^<]*)<\/button><\/form>|<button type="button" class="([^"]*)">([^<]*)<\/button>|<a class="([^"]*)" href="([^"]*)">([^<]*)<\/a>/g;
  for (const m of actionsHtml.matchAll(control)) {
    if (m[1] !== undefined) {
      const fields = Object.fromEntries([...m[2]!.matchAll(/name="([^"]*)" value="([^"]*)"/g)].map((f) => [f[1]!, decode(f[2]!)]));
      actions.push({ kind: 'post', href: decode(m[1]), fields, className: m[3]!, label: decode(m[4]!) });
    } else if (m[5] !== undefined) actions.push({ kind: 'close', className: m[5], label: decode(m[6]!) });
    else actions.push({ kind: 'link', className: m[7]!, href: decode(m[8]!), label: decode(m[9]!) });
  }
  return {
    level: heading?.[1],
    title: heading ? decode(heading[2]!) : undefined,
    paragraphs: [...text.matchAll(/<p>([^<]*)<\/p>/g)].map((m) => decode(m[1]!)),
    links,
    actions,
  };
}

const post = (intent: string) => ({ action: ACTION, fields: { step: 'X_STEP', intent } });
const postAction = (label: string, intent: string, className: string): Action => ({
  kind: 'post',
  href: ACTION,
  fields: { step: 'X_STEP', intent },
  className,
  label,
});
const formUrl = (type: string) => `${BASE}/identified?exit=${type}`;

interface Case {
  type: SensitiveAnswerDialogType;
  options: ComplianceDialogOptions<SensitiveAnswerDialogType>;
  title: string;
  /** The first words of each paragraph. */
  text: string[];
  primary: string;
  secondary: string;
  link: { label: string; href: string } | null;
}

const cases: Case[] = [
  {
    type: 'FATCA',
    options: { id: 'fatca-dialog', primary: post('attest'), secondary: post('cancel'), manualFormBase: BASE, values: { country: 'Sweden', countryCode: 'SE' } },
    title: 'We need to handle your application manually',
    text: ['If you are liable for tax in the USA or live outside Sweden,', 'If you chose this by mistake'],
    primary: 'I am only liable for tax in Sweden',
    secondary: 'Cancel',
    link: { label: 'Go to the form', href: formUrl('FATCA') },
  },
  {
    type: 'CITIZENSHIP',
    options: { id: 'citizenship-dialog', primary: post('resetChoice'), secondary: post('choose'), manualFormBase: BASE, values: { country: 'NO' } },
    title: 'We need more information about your citizenship',
    text: ['As a citizen of another country'],
    primary: 'I am only a citizen of Norway',
    secondary: 'Continue',
    link: { label: 'Fill in the form instead', href: formUrl('CITIZENSHIP') },
  },
  {
    type: 'RESIDENCY',
    options: { id: 'residency-dialog', primary: post('dialogContinue'), secondary: post('cancel'), manualFormBase: BASE, values: { country: 'DK' } },
    title: 'We need more information because you live abroad',
    text: ['You live outside Denmark.'],
    primary: 'Continue',
    secondary: 'Cancel',
    link: { label: 'Fill in the form instead', href: formUrl('RESIDENCY') },
  },
  {
    type: 'PEP',
    options: { id: 'pep-dialog', primary: post('resetPep'), secondary: post('cancel'), manualFormBase: BASE },
    title: 'You answered that you are a politically exposed person',
    text: [
      'A politically exposed person (PEP) has, or has had within the last 18 months,',
      'If you are a politically exposed person, you cannot continue your application online.',
    ],
    primary: 'I am not a politically exposed person',
    secondary: 'Cancel',
    link: { label: 'Go to the form', href: formUrl('PEP') },
  },
  {
    type: 'INVESTMENT_RISK',
    options: { id: 'investment-risk-dialog', primary: post('acceptRisk'), secondary: post('cancel') },
    title: 'Investing involves risk',
    text: [
      'The value of shares, funds and other securities can go down as well as up. You may lose some or all of the money you invest,',
      'To open an account online, you must confirm that you understand this risk.',
    ],
    primary: 'I understand the risk',
    secondary: 'Cancel',
    link: null,
  },
];

const intentOf = (target: unknown) => (target as { fields: { intent: string } }).fields.intent;

describe('complianceDialogProps', () => {
  it('builds every sensitive-answer dialog type', () => {
    expect(cases.map((c) => c.type).sort()).toEqual([...sensitiveAnswerDialogTypes].sort());
  });

  describe.each(cases)('$type', (c) => {
    const props = complianceDialogProps(t, c.type, c.options);
    const id = c.options.id;
    const primaryIntent = intentOf(c.options.primary);
    const secondaryIntent = intentOf(c.options.secondary);

    it('as a screen: h1 title, the texts, the link, both actions posting', () => {
      const html = renderToStaticMarkup(<Dialog {...props} />);
      expect(html.startsWith(`<section id="${id}" class="dialog dialog--screen" aria-labelledby="${id}-title">`)).toBe(true);
      const shown = read(html, id);
      expect(shown.level).toBe('1');
      expect(shown.title).toBe(c.title);
      expect(shown.paragraphs).toHaveLength(c.text.length);
      c.text.forEach((start, i) => expect(shown.paragraphs[i]!.startsWith(start), shown.paragraphs[i]).toBe(true));
      expect(shown.links).toEqual(c.link ? [c.link] : []);
      if (!c.link) expect(html).not.toContain('exit=');
      expect(shown.actions).toEqual([postAction(c.primary, primaryIntent, 'btn'), postAction(c.secondary, secondaryIntent, 'btn btn-secondary')]);
    });

    it('as a modal: a closed <dialog> island with h2 title, the link, primary posting and secondary closing', () => {
      const html = renderToStaticMarkup(<ModalDialog {...props} />);
      const island = /^<div data-island="dialog" data-props="([^"]*)">/.exec(html);
      // The browser hydrates the same component with the same props (client/islands/dialogIsland.tsx).
      expect(JSON.parse(decode(island![1]!))).toEqual(JSON.parse(JSON.stringify(props)));
      expect(html).toContain(`<dialog id="${id}" class="dialog dialog--modal" aria-labelledby="${id}-title" aria-describedby="${id}-text">`);
      const shown = read(html, id);
      expect(shown.level).toBe('2');
      expect(shown.title).toBe(c.title);
      expect(shown.links).toEqual(c.link ? [c.link] : []);
      expect(shown.actions).toEqual([postAction(c.primary, primaryIntent, 'btn'), { kind: 'close', label: c.secondary, className: 'btn btn-secondary' }]);
    });
  });

  it("RESIDENCY with the manual form as its secondary action (the residency step's dialog)", () => {
    const props = complianceDialogProps(t, 'RESIDENCY', {
      id: 'r',
      primary: post('dialogContinue'),
      secondary: 'manualForm',
      manualFormBase: BASE,
      values: { country: 'SE' },
      closes: ['primary'],
    });
    for (const html of [renderToStaticMarkup(<Dialog {...props} />), renderToStaticMarkup(<ModalDialog {...props} />)]) {
      const shown = read(html, 'r');
      expect(shown.links).toEqual([]);
      expect(shown.actions.at(-1)).toEqual({ kind: 'link', className: 'btn btn-secondary', href: formUrl('RESIDENCY'), label: 'Fill in the form instead' });
    }
  });

  it('passes on the modal options', () => {
    const props = complianceDialogProps(t, 'PEP', {
      id: 'p',
      primary: post('x'),
      secondary: post('y'),
      manualFormBase: BASE,
      closes: ['primary', 'secondary'],
      openers: ['pep-opener'],
      openOnLoad: true,
      warning: 'Choose an alternative',
    });
    expect(props).toMatchObject({ closes: ['primary', 'secondary'], openers: ['pep-opener'], openOnLoad: true, warning: 'Choose an alternative' });
  });

  it('INVESTMENT_RISK has no manual form to make its secondary action', () => {
    // @ts-expect-error: only the four manual-form types take 'manualForm'.
    expect(() => complianceDialogProps(t, 'INVESTMENT_RISK', { id: 'i', primary: post('x'), secondary: 'manualForm' })).toThrow(/INVESTMENT_RISK/);
  });

  it.each(supportedLocales)('PEP and INVESTMENT_RISK are translated in %s', (locale) => {
    const tr = i18n.translator(locale);
    for (const type of ['PEP', 'INVESTMENT_RISK'] as const) {
      const props = complianceDialogProps(tr, type, { id: 'd', primary: post('x'), secondary: post('y'), manualFormBase: BASE });
      expect(props.title.length).toBeGreaterThan(10);
      expect(props.text).toHaveLength(2);
      if (locale !== 'en')
        expect(props.title).not.toBe(complianceDialogProps(t, type, { id: 'd', primary: post('x'), secondary: post('y'), manualFormBase: BASE }).title);
    }
  });
});
