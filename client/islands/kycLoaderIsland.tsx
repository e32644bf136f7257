// The KYC step's loader (customer-information §2.3 "KYC questionnaire", §4.6, §9): shown while the
// worker retries the answer-session start or polls the risk calculation. The island asks the page which
// screen it would show now (GET …/shown, reads only) about once a second and reloads when that is no
// longer this loader; after LOADER_SLOW_AFTER_MS since the wait began it adds "This is taking longer than
// expected...". Without JavaScript the page refreshes itself and the server adds the same text.
import { useEffect, useState } from 'react';

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

export default function KycLoader({ shownUrl, step, screen, title, slowText, slowInMs }: KycLoaderProps) {
  const [slow, setSlow] = useState(slowInMs <= 0);

  useEffect(() => {
    if (slowInMs <= 0) return;
    const timer = setTimeout(() => setSlow(true), slowInMs);
    return () => clearTimeout(timer);
  }, [slowInMs]);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const res = await fetch(shownUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
        // 403: the session has gone; the reload shows where the person stands.
        if (res.status === 403) return location.reload();
        if (res.ok) {
          const shown = (await res.json()) as { step?: unknown; screen?: unknown };
          if (!stopped && (shown.step !== step || shown.screen !== screen)) return location.reload();
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
    <div className="kyc-loader" role="status" aria-live="polite">
      <span className="spinner spinner--large" aria-hidden="true" />
      <h1>{title}</h1>
      {slow && <p>{slowText}</p>}
    </div>
  );
}
