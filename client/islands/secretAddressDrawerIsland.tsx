// The Danish MitID page's secret-address banner (identification-routing-creation §2 "Danish MitID page"): See more opens a drawer
// titled "Registered address protection", See less closes it. The server (and the first browser render,
// so hydration matches) renders a <details> element, which works without JavaScript; once hydrated the
// island swaps it for a toggle button with aria-expanded and the drawer below it.
import { useState } from 'react';
import { useHydrated } from '../components/useHydrated.ts';

export interface SecretAddressDrawerProps {
  labels: { banner: string; seeMore: string; seeLess: string; title: string; text: string };
}

const DRAWER_ID = 'secret-address-drawer';
const TITLE_ID = 'secret-address-title';

export default function SecretAddressDrawer({ labels }: SecretAddressDrawerProps) {
  const enhanced = useHydrated();
  const [open, setOpen] = useState(false);

  const drawer = (
    <>
      <h2 id={TITLE_ID} className="drawer__title">
        {labels.title}
      </h2>
      <p>{labels.text}</p>
    </>
  );

  return (
    <div className="banner secret-address">
      <p className="secret-address__text">{labels.banner}</p>
      {enhanced ? (
        <>
          <button type="button" className="link-button" aria-expanded={open} aria-controls={DRAWER_ID} onClick={() => setOpen((o) => !o)}>
            {open ? labels.seeLess : labels.seeMore}
          </button>
          <section id={DRAWER_ID} className="drawer" aria-labelledby={TITLE_ID} hidden={!open}>
            {drawer}
          </section>
        </>
      ) : (
        <details className="secret-address__details">
          <summary className="link-button">{labels.seeMore}</summary>
          <section className="drawer" aria-labelledby={TITLE_ID}>
            {drawer}
          </section>
        </details>
      )}
    </div>
  );
}
