// The 403 page of a state-changing request that did not come from our own pages (server/csrfProtection.ts): a
// form another site posted, or a page too old to carry a valid token. Nothing was changed; the person
// goes back to the journey, which reloads the page with a fresh form.
import type { Translate } from '../../shared/i18n.ts';
import { routes } from '../../shared/routes.ts';

export function RequestRefusedPage({ t }: { t: Translate }) {
  return (
    <section className="result result--error" aria-labelledby="refused-title">
      <h1 id="refused-title">{t('error.refused.title')}</h1>
      <p>{t('error.refused.text')}</p>
      <p>
        <a className="btn" href={routes.start}>
          {t('error.refused.continue')}
        </a>
      </p>
    </section>
  );
}
