// What the page shell shows of the brokerage's system status (identification-routing-creation §3 status
// {creationPaused, feedbackBanner}, §8 "Account creation paused banner" and "High-load notice", §9; customer-information
// §8): pure, no I/O. server/infra/systemStatusCache.ts reads the status; views/Layout.tsx shows the banners.
import { knownFeedbackBanner, type SystemStatus } from './contracts/brokerageContract.ts';

export interface SystemBanners {
  /** identification-routing-creation §9: account creation paused is shown as the weekend maintenance banner ("Maintenance status"). */
  maintenance: boolean;
  /** identification-routing-creation §8: possible delays in account opening; log in after a few hours to check. */
  highLoad: boolean;
}

export const NO_SYSTEM_BANNERS: SystemBanners = { maintenance: false, highLoad: false };

/**
 * The banners for a status; null (the status unknown: its call failed or was too slow) shows none. feedbackBanner
 * HIGH_LOAD is the high-load notice; any other value is one this build has no text for and shows nothing (a page
 * cannot show the brokerage's raw string as a message to the person).
 */
export function systemBanners(status: SystemStatus | null): SystemBanners {
  if (!status) return NO_SYSTEM_BANNERS;
  return {
    maintenance: status.creationPaused,
    highLoad: knownFeedbackBanner.safeParse(status.feedbackBanner).data === 'HIGH_LOAD',
  };
}
