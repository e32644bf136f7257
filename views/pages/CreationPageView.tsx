// Customer creation (identification-routing-creation §2 "Customer creation screens"): the live outcome comes over server-sent
// events through the creationStatus island (views/components/CreationStatus.tsx); without JavaScript the page refreshes
// itself every 2 s.
import type { Translate } from '../../shared/i18n.ts';
import { MaintenanceBanner } from '../components/SystemStatusBanners.tsx';
import { CreationStatus, type CreationView } from '../components/CreationStatus.tsx';

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
      {/* The shell leaves its own maintenance banner out on this screen (server/pages.ts ownMaintenanceBanner). */}
      {creationPaused && <MaintenanceBanner t={t} id="creation-paused-title" />}
      <CreationStatus eventsUrl={eventsUrl} view={view} />
      <p>
        <a href={faqUrl}>{t('creation.faq')}</a>
      </p>
      <p className="banner">{t('creation.support', { phone: supportPhone })}</p>
    </>
  );
}
