// The brokerage's system status on the onboarding pages (identification-routing-creation §8 "Account creation paused
// banner, titled Maintenance status" and "High-load notice", §9; customer-information §8). Each is a region named by its
// title, first in <main>: a screen reader meets it before the page's form and finds it in the landmarks list. Not a
// live region (role="status"): it is there when the page loads, and a live region announces only later changes. Compact
// (title and text in one paragraph) and not dismissible: both say why an account may not open today.
import type { Translate } from '../../shared/i18n.ts';
import type { SystemBanners } from '../../shared/systemStatus.ts';

/** The weekend maintenance banner: account creation is paused. `id` names its title (unique on the page). */
export function MaintenanceBanner({ t, id }: { t: Translate; id: string }) {
  return (
    <div className="banner banner--warning banner--compact" role="region" aria-labelledby={id}>
      <p>
        <strong id={id}>{t('creation.creationPaused.title')}</strong> {t('creation.creationPaused.banner')}
      </p>
    </div>
  );
}

function HighLoadNotice({ t }: { t: Translate }) {
  return (
    <div className="banner banner--compact" role="region" aria-labelledby="system-status-high-load">
      <p>
        <strong id="system-status-high-load">{t('shell.systemStatus.highLoad.title')}</strong> {t('shell.systemStatus.highLoad.text')}
      </p>
    </div>
  );
}

/** The page shell's banners for the status (shared/systemStatus.ts systemBanners); nothing when there are none. */
export function SystemStatusBanners({ t, banners }: { t: Translate; banners: SystemBanners }) {
  return (
    <>
      {banners.maintenance && <MaintenanceBanner t={t} id="system-status-maintenance" />}
      {banners.highLoad && <HighLoadNotice t={t} />}
    </>
  );
}
