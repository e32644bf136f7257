// Browser side of every island: each island bundle (client/islands/<name>Island.tsx, wrapped by esbuild.config.mjs)
// hands its component to hydrateIslands, which attaches React to the server-rendered markup of every placeholder the
// server rendered for it (views/components/Island.tsx), with the same props, so the markup is written once.
import { useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { islandElements } from './islandElements.ts';

/** The console line a hydration mismatch writes; the browser walks fail on any console error. */
export const HYDRATION_ERROR_PREFIX = 'Hydration failed in island';

/** Calls `onCommit` once the root's first render is in the page (hydrated). */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [onCommit]);
  return children;
}

export function hydrateIslands<P extends object>(name: string, Component: ComponentType<P>): void {
  const found = islandElements<P>(name);
  let remaining = found.length;
  // When the page's island became usable (User Timing `island:<name>`), for whoever measures it (npm run bench, a RUM tool).
  const onCommit = () => {
    remaining -= 1;
    if (remaining === 0) performance.mark(`island:${name}`);
  };
  for (const { el, props } of found) {
    hydrateRoot(
      el,
      <Committed onCommit={onCommit}>
        <Component {...props} />
      </Committed>,
      {
        // React recovers from a mismatch by rendering the island afresh in the browser; say so loudly, as it means the
        // server and browser renders differ.
        onRecoverableError: (error) => console.error(`${HYDRATION_ERROR_PREFIX} "${name}":`, error),
      },
    );
  }
}
