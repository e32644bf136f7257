// Where the signing service sends the person back (customer-information §2.1, §4.8): customer creation when signed,
// the cancel page when cancelled, the page itself when postponed; in the native app's webview the app's deep links for
// signed and cancelled. Pure. A signing order handed out is re-opened by Sign only while it can still be signed: not
// after a cancel or postpone return, and not past its lifetime (reopenableSigningUrl).
import { routes } from './routes.ts';

export interface SigningReturnInput {
  /** Our own origin, from configuration (never from the request's Host). */
  publicUrl: string;
  prospectId: string;
  webview: boolean;
  /** The native app's URL scheme (NATIVE_APP_SCHEME, e.g. nordicbank). */
  nativeAppScheme: string;
  /**
   * Our name of the signing order (SigningOrderState.orderKey). With it, cancel and postpone return through
   * our signing returns, which end that order, then go on to the cancel page or the page itself.
   */
  orderKey?: string;
}

export interface SigningReturnUrls {
  complete_url: string;
  cancel_url: string;
  postpone_url: string;
}

export function signingReturnUrls({ publicUrl, prospectId, webview, nativeAppScheme, orderKey }: SigningReturnInput): SigningReturnUrls {
  // Postponing returns to this page, in the browser or the webview alike.
  const postpone_url = `${publicUrl}${orderKey ? routes.signingPostponed(prospectId, orderKey) : routes.customerInformation(prospectId)}`;
  if (webview) {
    // The deep links' paths mirror our routes (the spec names only "a cancel path and a create path").
    // Cancel names the order as in the browser: the app opens the path on our origin in its webview, which ends that
    // order (so Sign asks for a new one) and goes on to the app's close route.
    const app = `${nativeAppScheme}:/`;
    const cancel = orderKey ? routes.signingCancelled(prospectId, orderKey) : routes.cancel;
    return { complete_url: `${app}${routes.customerCreation(prospectId)}`, cancel_url: `${app}${cancel}`, postpone_url };
  }
  const cancel_url = `${publicUrl}${orderKey ? routes.signingCancelled(prospectId, orderKey) : routes.cancel}`;
  return { complete_url: `${publicUrl}${routes.customerCreation(prospectId)}`, cancel_url, postpone_url };
}

/** What is kept about the signing order handed out, next to its URL (server/journey.ts). */
export interface SigningOrderState {
  /** Our random name of the order, carried by its cancel and postpone return URLs. */
  orderKey?: string;
  /** Epoch ms the signing URL was handed out. */
  handedOutAt?: number;
  /** The signing service returned with cancel or postpone: the order is over. */
  ended?: 'cancelled' | 'postponed';
}

/**
 * The kept signing URL if Sign may re-open it (customer-information §4.8 "After the redirect the button
 * re-opens the URL"): not once the signing service returned with cancel or postpone, and not once the order
 * is older than its lifetime (or its age is unknown). Otherwise Sign asks for a new URL.
 */
export function reopenableSigningUrl(kept: ({ signingUrl?: string } & SigningOrderState) | undefined, now: number, lifetimeMs: number): string | undefined {
  if (!kept?.signingUrl || kept.ended || kept.handedOutAt === undefined) return undefined;
  return now - kept.handedOutAt < lifetimeMs ? kept.signingUrl : undefined;
}
