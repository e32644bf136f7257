// Where the signing service sends the person back (customer-information §2.1 "Return routes used after
// signing", §4.8): the onboarding customer-creation route when signed, the onboarding-cancel route when
// cancelled, and the page itself when postponed. In the native app's webview, signed and cancelled go to the
// app's deep links instead (a create path and a cancel path), so the app takes over. Pure.
import { routes } from './routes.ts';

export interface SigningReturnInput {
  /** Our own origin, from configuration (never from the request's Host). */
  publicUrl: string;
  prospectId: string;
  webview: boolean;
  /** The native app's URL scheme (NATIVE_APP_SCHEME, e.g. nordicbank). */
  nativeAppScheme: string;
}

export interface SigningReturnUrls {
  complete_url: string;
  cancel_url: string;
  postpone_url: string;
}

export function signingReturnUrls({ publicUrl, prospectId, webview, nativeAppScheme }: SigningReturnInput): SigningReturnUrls {
  // Postponing returns to this page, in the browser or the webview alike.
  const postpone_url = `${publicUrl}${routes.customerInformation(prospectId)}`;
  if (webview) {
    // The deep links' paths mirror our routes (the spec names only "a cancel path and a create path").
    const app = `${nativeAppScheme}:/`;
    return { complete_url: `${app}${routes.customerCreation(prospectId)}`, cancel_url: `${app}${routes.cancel}`, postpone_url };
  }
  return { complete_url: `${publicUrl}${routes.customerCreation(prospectId)}`, cancel_url: `${publicUrl}${routes.cancel}`, postpone_url };
}
