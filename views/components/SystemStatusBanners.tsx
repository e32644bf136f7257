// The brokerage's system status on the onboarding pages (identification-routing-creation §8 "Account creation paused
// banner, titled Maintenance status" and "High-load notice", §9; customer-information §8). Each is a region named by its
// title, first in <main>: a screen reader meets it before the page's form and finds it in the landmarks list. Not a
// live region (role="status"): it is there when the page loads, and a live region announces only later changes. Compact:
// the title opens the text (details, no script needed), so both leave a phone screen's primary action above the fold.
import type { Translate } from '../../shared/i18n.ts';
import type { SystemBanners } from '../../shared/systemStatus.ts';

/** The weekend maintenance banner: account creation is paused. `id` names its title (unique on the page). */
export function MaintenanceBanner({ t, id }: { t: Translate; id: string }) {
  return (
    <div className="banner banner--warning banner--compact" role="region" aria-labelledby={id}>
      <details>
        <summary>
          <strong id={id}>{t('creation.creationPaused.title')}</strong>
        </summary>
        <p>{t('creation.creationPaused.banner')}</p>
      </details>
    </div>
  );
}

function HighLoadNotice({ t }: { t: Translate }) {
  return (
    <div className="banner banner--compact" role="region" aria-labelledby="system-status-high-load">
      <details>
        <summary>
          <strong id="system-status-high-load">{t('shell.systemStatus.highLoad.title')}</strong>
        </summary>
        <p>{t('shell.systemStatus.highLoad.text')}</p>
      </details>
    </div>
  );
}

/** The page shell's banners for the status (shared/systemStatus.ts systemBanners); nothing when there are none. */
export function SystemStatusBanners({ t, banners }: { t: Translate; banners: SystemBanners }) {
  if (!banners.maintenance && !banners.highLoad) return null;
  return (
    <div className="system-banners">
      {banners.maintenance && <MaintenanceBanner t={t} id="system-status-maintenance" />}
      {banners.highLoad && <HighLoadNotice t={t} />}
    </div>
  );
}
