// FAQ side panel 'Questions and answers' (customer-information.md §2.3): the market's items (shared/markets.ts
// faqItemsFor: no EPK outside Norway), each a native <details> (expands and collapses independently, no
// JavaScript needed) with a Read more link.
import type { Translate } from '../../shared/i18n.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { faqAnchors, faqItemsFor } from '../../shared/markets.ts';

export function FaqPanel({ t, faqUrl, country }: { t: Translate; faqUrl: string; country: CountryCode }) {
  return (
    <aside className="faq-panel" aria-labelledby="faq-title">
      <h2 id="faq-title">{t('faq.title')}</h2>
      {faqItemsFor(country).map((key) => (
        <details key={key} className="faq-panel__item">
          <summary>{t(`faq.${key}.question`)}</summary>
          <p>{t(`faq.${key}.answer`)}</p>
          <p>
            <a href={`${faqUrl}#${faqAnchors[key]}`} aria-label={t('faq.readMore.label', { question: t(`faq.${key}.question`) })}>
              {t('faq.readMore')}
            </a>
          </p>
        </details>
      ))}
    </aside>
  );
}
