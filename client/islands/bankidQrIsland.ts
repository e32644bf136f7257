// Swedish BankID order in progress (identification-routing-creation §2 "Identification screens"), without React:
// the server renders the state now (views/components/BankidQrStatus.tsx; without JavaScript the page polls by
// refreshing); this script polls the status endpoint, rotates the QR code and updates the hints in that same markup,
// starts the BankID app once the order waits for it, and follows `next` when done (issue 23 item 5: a phone's
// BankID screen usable within 1.5 s, no 70 KB of React before it).
import type { BankidQrLabels, BankidQrScriptProps, BankidQrStatus, BankidQrView } from '../../views/components/BankidQrStatus.tsx';
import { bankidQrParts as parts } from '../components/bankidQrParts.ts';
import { h, postForm } from '../components/dom.ts';

const states: readonly string[] = ['pending', 'failed', 'complete'];

// Hand-written check instead of zod: the island bundle stays small. An answer that doesn't match is ignored.
function parseStatus(value: unknown): BankidQrStatus | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const retry = v.retry as Record<string, unknown> | null | undefined;
  const launch = v.launch as Record<string, unknown> | null | undefined;
  if (
    (v.qrSvg !== null && typeof v.qrSvg !== 'string') ||
    typeof v.message !== 'string' ||
    !states.includes(v.state as string) ||
    typeof v.showSpinner !== 'boolean' ||
    (retry != null && (typeof retry.url !== 'string' || typeof retry.label !== 'string')) ||
    (launch != null && (typeof launch.url !== 'string' || typeof launch.label !== 'string')) ||
    (v.autoLaunch !== undefined && typeof v.autoLaunch !== 'boolean') ||
    (v.next !== undefined && typeof v.next !== 'string')
  ) {
    return null;
  }
  return v as unknown as BankidQrStatus;
}

const child = (root: Element, className: string) => root.querySelector<HTMLElement>(`:scope > .${className}`);

/**
 * Brings the server's markup to `view`, touching only what changed: the live region stays the same element (so
 * screen readers announce its new text), and a link or button that did not change keeps its focus.
 */
function update(root: HTMLElement, status: HTMLElement, view: BankidQrView, labels: BankidQrLabels, shown: { svg: string | null }): void {
  let qr = child(root, parts.qr);
  if (view.qrSvg !== null && !view.showSpinner) {
    if (!qr) {
      qr = h('div', { className: parts.qr, role: 'img', 'aria-label': labels.qrAlt });
      root.prepend(qr);
      shown.svg = null;
    }
    // The SVG comes from our own server (qrcode output); the CSP forbids inline script anyway.
    if (shown.svg !== view.qrSvg) qr.innerHTML = shown.svg = view.qrSvg;
  } else qr?.remove();

  const launch = child(root, parts.launch);
  const link = launch?.querySelector('a');
  const wanted = view.launch && !view.showSpinner ? view.launch : null;
  if (!wanted || link?.getAttribute('href') !== wanted.url || link.textContent !== wanted.label) {
    launch?.remove();
    if (wanted) status.before(h('p', { className: parts.launch }, h('a', { className: 'btn', href: wanted.url }, wanted.label)));
  }

  const spinner = status.querySelector(':scope > .spinner-text');
  if (view.showSpinner && !spinner)
    status.prepend(h('p', { className: 'spinner-text' }, h('span', { className: 'spinner', 'aria-hidden': 'true' }), labels.signingIn));
  if (!view.showSpinner) spinner?.remove();
  const message = status.querySelector(':scope > p:not(.spinner-text)') ?? status.appendChild(h('p'));
  if (message.textContent !== view.message) message.textContent = view.message;

  const retry = child(root, parts.retry);
  if (!view.retry || retry?.getAttribute('action') !== view.retry.url || retry.textContent !== view.retry.label) {
    retry?.remove();
    if (view.retry) root.append(postForm(view.retry.url, view.retry.label, parts.retry));
  }
}

export default function enhanceBankidQr(el: HTMLElement, props: BankidQrScriptProps): void {
  const root = el.querySelector<HTMLElement>(`.${parts.root}`);
  const status = root && child(root, parts.status);
  if (!root || !status) return;
  const { statusUrl, pollMs, labels } = props;
  const shown = { svg: null as string | null };

  // Once the user submits a form (Back, switch, cancel) the page is leaving: an app launch or a poll's redirect
  // started after that would cancel the user's own navigation.
  let leaving = false;
  const onLeave = () => {
    leaving = true;
  };
  document.addEventListener('submit', onLeave, true);
  window.addEventListener('pagehide', onLeave);

  // Each order's launch URL carries its own autostart token: start the app once per order, not per poll.
  let launched: string | null = null;
  const launchIfWaiting = (view: Pick<BankidQrView, 'launch' | 'autoLaunch'>) => {
    if (leaving || !view.autoLaunch || !view.launch || launched === view.launch.url) return;
    launched = view.launch.url;
    location.href = view.launch.url;
  };
  launchIfWaiting(props);
  if (props.state === 'failed') return;

  // A timeout chain, not setInterval: on a slow network requests never pile up behind each other.
  const poll = async () => {
    try {
      const res = await fetch(statusUrl, { credentials: 'same-origin', headers: { accept: 'application/json' }, cache: 'no-store' });
      // 409: the session holds no order any more (Back or a new start in another tab). Polling never starts one,
      // so the page is loaded again and shows what the session holds now.
      if (res.status === 409 && !leaving) {
        location.reload();
        return;
      }
      const next = res.ok ? parseStatus(await res.json()) : null;
      if (next && !leaving) {
        if (next.next) {
          location.assign(next.next);
          return;
        }
        const view: BankidQrView = { ...next, retry: next.retry ?? null, launch: next.launch ?? null, autoLaunch: next.autoLaunch ?? false };
        update(root, status, view, labels, shown);
        launchIfWaiting(view);
        // Failed ends the order: Try again (a form post) starts the next one.
        if (view.state === 'failed') return;
      }
    } catch {
      // Offline, a timeout or a non-JSON answer: try again on the next tick.
    }
    setTimeout(() => void poll(), pollMs);
  };
  setTimeout(() => void poll(), pollMs);
}
