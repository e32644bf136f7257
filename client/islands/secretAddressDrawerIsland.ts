// The Danish MitID page's secret-address banner (identification-routing-creation §2 "Danish MitID page"): See more opens
// a drawer titled "Registered address protection", See less closes it. The server renders a <details> element
// (views/pages/OidcIdentificationPageView.tsx SecretAddressBanner), which works without JavaScript; this script swaps
// it for a toggle button with aria-expanded and the drawer below it. Plain DOM, no React (issue 23 item 5).
import { h } from '../components/dom.ts';

export interface SecretAddressDrawerProps {
  labels: { seeMore: string; seeLess: string };
}

export const SECRET_ADDRESS_DRAWER_ID = 'secret-address-drawer';

export default function enhanceSecretAddressDrawer(el: HTMLElement, { labels }: SecretAddressDrawerProps): void {
  const details = el.querySelector('details');
  const content = details?.querySelector(':scope > section.drawer');
  if (!details || !content) return;
  const drawer = h(
    'section',
    { id: SECRET_ADDRESS_DRAWER_ID, className: 'drawer', 'aria-labelledby': content.getAttribute('aria-labelledby') ?? '' },
    ...content.childNodes,
  );
  drawer.hidden = true;
  const toggle = h('button', { type: 'button', className: 'link-button', 'aria-expanded': 'false', 'aria-controls': SECRET_ADDRESS_DRAWER_ID }, labels.seeMore);
  toggle.addEventListener('click', () => {
    drawer.hidden = !drawer.hidden;
    toggle.setAttribute('aria-expanded', String(!drawer.hidden));
    toggle.textContent = drawer.hidden ? labels.seeMore : labels.seeLess;
  });
  details.replaceWith(toggle, drawer);
}
