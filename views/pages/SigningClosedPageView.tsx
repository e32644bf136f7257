// The customer-information page after the one-way door of signing (customer-information §4.8):
// the agreements are signed and creation has started, so nothing can be changed or signed again here; the
// only way on is customer creation (a plain link: a GET, it posts nothing).
import type { Translate } from '../../shared/i18n.ts';

export function SigningClosed({ t, creationUrl }: { t: Translate; creationUrl: string }) {
  return (
    <section className="milestone signing-closed" aria-labelledby="signing-closed-title">
      <h1 id="signing-closed-title">{t('milestone.three.closed.title')}</h1>
      <p>{t('milestone.three.closed.text')}</p>
      <p>
        <a className="btn" href={creationUrl}>
          {t('milestone.three.closed.continue')}
        </a>
      </p>
    </section>
  );
}
