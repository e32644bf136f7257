// The KYC step's loader (customer-information §2.3 "KYC questionnaire", §4.6, §9): shown while the worker retries the
// answer-session start or polls the risk calculation. The server renders it (views/pages/KycStepView.tsx
// KycLoaderScreen; without JavaScript the page refreshes itself and the server adds the slow text once due). This
// script asks the page which screen it would show now (GET …/shown, reads only) about once a second and reloads when
// that is no longer this loader; once the slow text is due it adds "This is taking longer than expected...". Plain
// DOM, no React (issue 23 item 5).
import { h } from '../components/dom.ts';

export interface KycLoaderScriptProps {
  shownUrl: string;
  /** The step and screen this page shows; anything else from shownUrl means the wait is over. */
  step: string;
  screen: string;
  slowText: string;
  /** Milliseconds until the slow text is due (0: already, and the server has rendered it). */
  slowInMs: number;
}

/** How often the script asks; one Redis read per ask. */
export const SHOWN_POLL_MS = 1000;

export default function enhanceKycLoader(el: HTMLElement, { shownUrl, step, screen, slowText, slowInMs }: KycLoaderScriptProps): void {
  const status = el.querySelector('.kyc-loader');
  // Into the live region, so it is read out when it comes.
  if (status && slowInMs > 0) setTimeout(() => status.append(h('p', {}, slowText)), slowInMs);

  const ask = async () => {
    try {
      const res = await fetch(shownUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
      // 403: the session has gone; the reload shows where the person stands.
      if (res.status === 403) return location.reload();
      if (res.ok) {
        const shown = (await res.json()) as { step?: unknown; screen?: unknown };
        if (shown.step !== step || shown.screen !== screen) return location.reload();
      }
    } catch {
      // Offline for a moment: ask again.
    }
    setTimeout(() => void ask(), SHOWN_POLL_MS);
  };
  setTimeout(() => void ask(), SHOWN_POLL_MS);
}
