// The Swedish BankID order's state (identification-routing-creation §2 "Identification screens"): the rotating QR
// code (other device) or the launch link (this device), the hints and Try again. Without JavaScript the server's
// render is the page (it refreshes itself); with it the bankidQr island (client/islands/bankidQrIsland.tsx) hydrates
// the same component, which polls the status endpoint and renders each answer, starts the BankID app once the order
// waits for it, and follows `next` when done.
import { useEffect, useRef, useState } from 'react';
import { parseBankidQrStatus, type BankidQrStatus, type BankidQrView } from '../../shared/bankidQr.ts';
import { CsrfField } from './CsrfField.tsx';
import { Island } from './Island.tsx';

// The answer's type, for whoever scripts the status endpoint beside this view (tests/support/scriptedIslands.ts).
export type { BankidQrStatus } from '../../shared/bankidQr.ts';

export interface BankidQrLabels {
  qrAlt: string;
  signingIn: string;
}

/** What the page renders (the island's props): the order's state now, where to poll it, and the texts it needs. */
export interface BankidQrProps extends Omit<BankidQrStatus, 'next'> {
  statusUrl: string;
  pollMs: number;
  labels: BankidQrLabels;
}

/**
 * How long one poll may take before it is given up: longer than the server's own upstream deadlines (a poll that
 * completes the order calls BankID and the brokerage), so only a dead connection reaches it.
 */
const POLL_DEADLINE_MS = 30_000;

const viewOf = ({ qrSvg, message, state, retry, showSpinner, launch, autoLaunch }: Omit<BankidQrStatus, 'next'>): BankidQrView => ({
  qrSvg,
  message,
  state,
  retry: retry ?? null,
  showSpinner,
  launch: launch ?? null,
  autoLaunch: autoLaunch ?? false,
});

/**
 * The order, polled: the bankidQr island's component. Its children keep their places whatever the state (a part that
 * is not shown leaves an empty slot), so the live region stays the same element and screen readers announce its new
 * text, and a link or button that did not change keeps its focus.
 */
export function BankidQr(props: BankidQrProps) {
  const { statusUrl, pollMs, labels } = props;
  const [view, setView] = useState(() => viewOf(props));
  // Once the person submits a form (Back, switch, cancel) the page is leaving: an app launch or a poll's redirect
  // started after that would cancel their own navigation.
  const leaving = useRef(false);
  // Each order's launch URL carries its own autostart token: the app is started once per order, not per poll.
  const launched = useRef<string | null>(null);

  useEffect(() => {
    const onLeave = () => {
      leaving.current = true;
    };
    document.addEventListener('submit', onLeave, true);
    window.addEventListener('pagehide', onLeave);
    return () => {
      document.removeEventListener('submit', onLeave, true);
      window.removeEventListener('pagehide', onLeave);
    };
  }, []);

  const launchUrl = view.autoLaunch ? view.launch?.url : undefined;
  useEffect(() => {
    if (!launchUrl || leaving.current || launched.current === launchUrl) return;
    launched.current = launchUrl;
    location.href = launchUrl;
  }, [launchUrl]);

  // Failed ends the order: Try again (a form post) starts the next one.
  const failedOnLoad = props.state === 'failed';
  useEffect(() => {
    if (failedOnLoad) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const aborts = new AbortController();
    // A timeout chain, not setInterval: on a slow network requests never pile up behind each other.
    const poll = async () => {
      // A poll that hangs (a dead connection) is given up, and the next one asked, instead of stalling the page.
      const request = new AbortController();
      const deadline = setTimeout(() => request.abort(), POLL_DEADLINE_MS);
      const stop = () => request.abort();
      aborts.signal.addEventListener('abort', stop);
      try {
        const res = await fetch(statusUrl, {
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
          cache: 'no-store',
          signal: request.signal,
        });
        // 409: the session holds no order any more (Back or a new start in another tab). Polling never starts one,
        // so the page is loaded again and shows what the session holds now.
        if (res.status === 409 && !leaving.current) {
          location.reload();
          return;
        }
        const answer = res.ok ? parseBankidQrStatus(await res.json()) : null;
        if (answer && !leaving.current && !stopped) {
          if (answer.next) {
            location.assign(answer.next);
            return;
          }
          setView(viewOf(answer));
          if (answer.state === 'failed') return;
        }
      } catch {
        // Offline, a timeout or a non-JSON answer: try again on the next tick.
      } finally {
        clearTimeout(deadline);
        aborts.signal.removeEventListener('abort', stop);
      }
      if (!stopped) timer = setTimeout(() => void poll(), pollMs);
    };
    timer = setTimeout(() => void poll(), pollMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
      aborts.abort();
    };
  }, [failedOnLoad, statusUrl, pollMs]);

  return (
    <div className="bankid-qr">
      {view.qrSvg !== null && !view.showSpinner && (
        // The SVG comes from our own server (qrcode output); the CSP forbids inline script anyway.
        <div className="qr" role="img" aria-label={labels.qrAlt} dangerouslySetInnerHTML={{ __html: view.qrSvg }} />
      )}
      {view.launch && !view.showSpinner && (
        <p className="bankid-qr__launch">
          <a className="btn" href={view.launch.url}>
            {view.launch.label}
          </a>
        </p>
      )}
      {/* Always present, so that screen readers announce the hints as they change. */}
      <div className="bankid-qr__status" aria-live="polite">
        {view.showSpinner && (
          <p className="spinner-text">
            <span className="spinner" aria-hidden="true" />
            {labels.signingIn}
          </p>
        )}
        <p>{view.message}</p>
      </div>
      {view.retry && (
        <form method="post" action={view.retry.url} className="bankid-qr__retry">
          <CsrfField />
          <button type="submit" className="btn">
            {view.retry.label}
          </button>
        </form>
      )}
    </div>
  );
}

/** The order's state on the page: the bankidQr island. */
export function BankidQrOrder({ qr }: { qr: BankidQrProps }) {
  return <Island name="bankidQr" component={BankidQr} props={qr} />;
}
