// Browser side of the islands: each island bundle calls hydrateIslands with its own component, which
// attaches React to the server-rendered markup of every matching placeholder on the page.
import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';

export function hydrateIslands<P extends object>(name: string, Component: ComponentType<P>): void {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    let props: P;
    try {
      props = JSON.parse(el.dataset.props ?? '{}') as P;
    } catch {
      // Leave the server-rendered HTML working as is rather than break the page.
      continue;
    }
    hydrateRoot(el, <Component {...props} />);
  }
}
