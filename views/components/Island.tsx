// The islands: the interactive parts of a page. A view marks one with <Island>: the server renders the component here,
// and the browser hydrates that same component with the same props (client/islands/<name>Island.tsx, through
// client/hydrate.tsx). The page render (renderPage in server/render.tsx) collects the names of the islands a page
// rendered, so the page only sends their JavaScript, and a page without islands ships no script at all.
import { createContext, useContext, type ComponentType, type ReactElement } from 'react';

/**
 * Per render: the names of the islands rendered, so the document asks only for their scripts. Null
 * outside renderPage (a view rendered on its own in a test still works, it just collects nothing).
 */
export const IslandCollector = createContext<Set<string> | null>(null);

export interface IslandProps<P extends object> {
  /** The island's name: its file in client/islands is <name>Island.tsx (e.g. countrySelect → countrySelectIsland.tsx); it names the browser bundle. */
  name: string;
  component: ComponentType<P>;
  /** Must survive JSON: the browser hydrates the same component with JSON.parse(data-props). */
  props: P;
}

/**
 * Server-renders an interactive component and marks it for hydration. The component must render the same markup from
 * the same props in the browser: it cannot use useId (the browser root starts a new id tree) nor read browser-only
 * state during the first render (useHydrated switches on what needs JavaScript after hydration).
 */
export function Island<P extends object>({ name, component: Component, props }: IslandProps<P>): ReactElement {
  useContext(IslandCollector)?.add(name);
  return (
    <div data-island={name} data-props={JSON.stringify(props)}>
      <Component {...props} />
    </div>
  );
}
