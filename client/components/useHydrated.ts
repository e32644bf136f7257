// Whether this island has hydrated: false on the server and in the browser's first (hydrating) render, so
// both agree, then true. An island switches on what only works with JavaScript (live search, a toggle
// instead of <details>, a field telling the server the post was enhanced) with it.
//
//   const enhanced = useHydrated();
import { useSyncExternalStore } from 'react';

// Nothing ever changes after hydration: there is nothing to subscribe to.
const subscribe = () => () => {};

export function useHydrated(): boolean {
  // React renders the hydration pass with the server snapshot (false), then re-renders with the client's (true).
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
