// The Danish MitID page's secret-address banner (identification-routing-creation §2 "Danish MitID page"): See more
// opens a drawer titled "Registered address protection", See less closes it. The server renders a <details> element,
// which works without JavaScript; once the secretAddressDrawer island (client/islands/secretAddressDrawerIsland.tsx)
// has hydrated it renders a toggle button with aria-expanded and the drawer below it instead.
import { useState } from 'react';
import { useHydrated } from '../../client/components/useHydrated.ts';
import { Island } from './Island.tsx';

export interface SecretAddressDrawerProps {
  /** The banner's text. */
  text: string;
  /** The drawer's title and text. */
  title: string;
  body: string;
  labels: { seeMore: string; seeLess: string };
}

const DRAWER_ID = 'secret-address-drawer';
const TITLE_ID = 'secret-address-title';

/** The banner (the secretAddressDrawer island's component). */
export function SecretAddressBanner({ text, title, body, labels }: SecretAddressDrawerProps) {
  const enhanced = useHydrated();
  const [open, setOpen] = useState(false);
  const content = (
    <>
      <h2 id={TITLE_ID} className="drawer__title">
        {title}
      </h2>
      <p>{body}</p>
    </>
  );
  return (
    <div className="banner secret-address">
      <p className="secret-address__text">{text}</p>
      {enhanced ? (
        <>
          <button type="button" className="link-button" aria-expanded={open} aria-controls={DRAWER_ID} onClick={() => setOpen(!open)}>
            {open ? labels.seeLess : labels.seeMore}
          </button>
          <section id={DRAWER_ID} className="drawer" aria-labelledby={TITLE_ID} hidden={!open}>
            {content}
          </section>
        </>
      ) : (
        <details className="secret-address__details">
          <summary className="link-button">{labels.seeMore}</summary>
          <section className="drawer" aria-labelledby={TITLE_ID}>
            {content}
          </section>
        </details>
      )}
    </div>
  );
}

/** The banner in the MitID page: the secretAddressDrawer island. */
export function SecretAddressDrawer(props: SecretAddressDrawerProps) {
  return <Island name="secretAddressDrawer" component={SecretAddressBanner} props={props} />;
}
