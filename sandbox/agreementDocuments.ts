// The precontractual documents the sandbox's content service serves per account and language
// (customer-information §7 GET /api/2/content/onboarding/agreement/bundles; ids in customer-information §9).
// Titles are localized as the real content service's are; the ATYID id is the query, never part of a title.

export const documentLanguages = ['en', 'sv', 'nb', 'da', 'fi'] as const;
type DocumentLanguage = (typeof documentLanguages)[number];

/** The account each precontractual document id belongs to, named in each language. */
const accountNames: Readonly<Record<string, Readonly<Record<DocumentLanguage, string>>>> = {
  ATYID_108: { en: 'Stock and Fund Account', sv: 'Aktie- och fonddepå', nb: 'Aksje- og fondskonto', da: 'Aktie- og fondsdepot', fi: 'Osake- ja rahastotili' },
  ATYID_125: {
    en: 'Investment Savings Account',
    sv: 'Investeringssparkonto',
    nb: 'Investeringssparekonto',
    da: 'Investeringsopsparingskonto',
    fi: 'Sijoitussäästötili',
  },
  ATYID_135: { en: 'Equity Savings Account', sv: 'Aktiesparkonto', nb: 'Aksjesparekonto', da: 'Aktiesparekonto', fi: 'Osakesäästötili' },
  ATYID_142: { en: 'Equity Savings Account', sv: 'Aktiesparkonto', nb: 'Aksjesparekonto', da: 'Aktiesparekonto', fi: 'Osakesäästötili' },
  ATYID_139: { en: 'Equity Savings Account', sv: 'Aktiesparkonto', nb: 'Aksjesparekonto', da: 'Aktiesparekonto', fi: 'Osakesäästötili' },
  ATYID_119: {
    en: 'EPK Pension Account',
    sv: 'Pensionskonto (EPK)',
    nb: 'Egen pensjonskonto (EPK)',
    da: 'Egen pensionskonto (EPK)',
    fi: 'Oma eläketili (EPK)',
  },
};

const documentKinds: readonly { file: string; title: Readonly<Record<DocumentLanguage, string>> }[] = [
  {
    file: 'precontractual-information.pdf',
    title: {
      en: 'Pre-contractual information',
      sv: 'Förköpsinformation',
      nb: 'Informasjon før avtaleinngåelse',
      da: 'Information før aftaleindgåelse',
      fi: 'Ennakkotiedot',
    },
  },
  {
    file: 'general-terms.pdf',
    title: { en: 'General terms and conditions', sv: 'Allmänna villkor', nb: 'Alminnelige vilkår', da: 'Generelle vilkår', fi: 'Yleiset ehdot' },
  },
];

export const knownPdfIds: ReadonlySet<string> = new Set(Object.keys(accountNames));

/** The documents of one id in one language (English for a language the service has no texts in). */
export function agreementDocuments(pdfId: string, lang: string, base: string): { title: string; url: string }[] {
  const names = accountNames[pdfId];
  if (!names) return [];
  const language: DocumentLanguage = (documentLanguages as readonly string[]).includes(lang) ? (lang as DocumentLanguage) : 'en';
  return documentKinds.map((kind) => ({ title: `${kind.title[language]} – ${names[language]}`, url: `${base}/${kind.file}` }));
}
