// Customer creation (identification-routing-creation §2 "Customer creation screens"): the live outcome comes over server-sent
// events through the island; without JavaScript the page refreshes itself every 2 s.
import type { Translate } from '../../shared/i18n.ts';
import { Island } from '../components/Island.tsx';
import CreationStatus, { type CreationView } from '../../client/islands/creationStatusIsland.tsx';

export function CreationPage({
  t,
  eventsUrl,
  view,
  faqUrl,
  supportPhone,
  creationPaused,
}: {
  t: Translate;
  eventsUrl: string;
  view: CreationView;
  faqUrl: string;
  supportPhone: string;
  creationPaused: boolean;
}) {
  return (
    <>
      {creationPaused && (
        <div className="banner banner--warning" role="note">
          <p>
            <strong>{t('creation.creationPaused.title')}</strong>
          </p>
          <p>{t('creation.creationPaused.banner')}</p>
        </div>
      )}
      <Island name="creationStatus" component={CreationStatus} props={{ eventsUrl, view }} />
      <p>
        <a href={faqUrl}>{t('creation.faq')}</a>
      </p>
      <p className="banner">{t('creation.support', { phone: supportPhone })}</p>
    </>
  );
}
