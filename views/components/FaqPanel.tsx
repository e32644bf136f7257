// FAQ side panel 'Questions and answers' (customer-information.md §2.3): five items, each a native
// <details> (expands and collapses independently, no JavaScript needed) with a Read more link.
import type { Translate } from '../../shared/i18n.ts';

const items = [
  { key: 'DEP', anchor: 'depot' },
  { key: 'ISK', anchor: 'investment-savings-account' },
  { key: 'EPK', anchor: 'epk-pension-account' },
  { key: 'TAX', anchor: 'us-or-foreign-tax' },
  { key: 'PEP', anchor: 'politically-exposed-person' },
] as const;

export function FaqPanel({ t, faqUrl }: { t: Translate; faqUrl: string }) {
  return (
    <aside className="faq-panel" aria-labelledby="faq-title">
      <h2 id="faq-title">{t('faq.title')}</h2>
      {items.map(({ key, anchor }) => (
        <details key={key} className="faq-panel__item">
          <summary>{t(`faq.${key}.question`)}</summary>
          <p>{t(`faq.${key}.answer`)}</p>
          <p>
            <a href={`${faqUrl}#${anchor}`} aria-label={t('faq.readMore.label', { question: t(`faq.${key}.question`) })}>
              {t('faq.readMore')}
            </a>
          </p>
        </details>
      ))}
    </aside>
  );
}
