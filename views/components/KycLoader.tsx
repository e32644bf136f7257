// The KYC step's loader (customer-information §2.3 "KYC questionnaire", §4.6, §9): the kycLoader island, shown while the
// worker retries the answer-session start or polls the risk calculation. Without JavaScript the page refreshes itself
// (the page machine's busy screen) and the server renders the slow text once due. Hydrated, it asks the page which
// screen it would show now (GET …/shown, reads only) about once a second and reloads when that is no longer this
// loader; once the slow text is due it shows "This is taking longer than expected...".
import { useEffect, useState } from 'react';
import { shownScreenSchema } from '../../shared/shownScreen.ts';

export interface KycLoaderProps {
  shownUrl: string;
  /** The step and screen this page shows; anything else from shownUrl means the wait is over. */
  step: string;
  screen: string;
  title: string;
  slowText: string;
  /** Milliseconds until the slow text is due (0: already). */
  slowInMs: number;
}

/** How often the island asks; one Redis read per ask. */
export const SHOWN_POLL_MS = 1000;

export function KycLoader({ shownUrl, step, screen, title, slowText, slowInMs }: KycLoaderProps) {
  const [slow, setSlow] = useState(slowInMs <= 0);

  useEffect(() => {
    if (slowInMs <= 0) return;
    const timer = setTimeout(() => setSlow(true), slowInMs);
    return () => clearTimeout(timer);
  }, [slowInMs]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const ask = async () => {
      try {
        const res = await fetch(shownUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
        // 403: the session has gone; the reload shows where the person stands.
        if (res.status === 403) return location.reload();
        if (res.ok) {
          const shown = shownScreenSchema.safeParse(await res.json());
          // An answer of another shape says nothing about the wait: ask again.
          if (shown.success && (shown.data.step !== step || shown.data.screen !== screen)) return location.reload();
        }
      } catch {
        // Offline for a moment: ask again.
      }
      if (!stopped) timer = setTimeout(() => void ask(), SHOWN_POLL_MS);
    };
    timer = setTimeout(() => void ask(), SHOWN_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [shownUrl, step, screen]);

  return (
    // The slow text comes into the live region, so it is read out when it comes.
    <div className="kyc-loader" role="status" aria-live="polite">
      <span className="spinner spinner--large" aria-hidden="true" />
      <h1>{title}</h1>
      {slow && <p>{slowText}</p>}
    </div>
  );
}
