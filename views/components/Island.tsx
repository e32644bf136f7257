// The "islands": the few components that hydrate in the browser. A view marks one with <Island>; the
// page render (renderPage in server/render.tsx) collects the names of the islands a page rendered, so
// the page only sends their JavaScript and JS-free pages (most of the journey) ship no script at all.
import { createContext, useContext, type ComponentType, type ReactElement, type ReactNode } from 'react';

/**
 * Per render: the names of the islands rendered, so the document asks only for their scripts. Null
 * outside renderPage (a view rendered on its own in a test still works, it just collects nothing).
 */
export const IslandCollector = createContext<Set<string> | null>(null);

/** A React island: the same component renders on the server and hydrates in the browser (client/islands/<name>Island.tsx). */
interface HydratedIslandProps<P extends object> {
  /** The island's name: its file in client/islands is <name>Island.tsx (e.g. countrySelect → countrySelectIsland.tsx); it names the browser bundle. */
  name: string;
  component: ComponentType<P>;
  /** Must survive JSON: the browser hydrates the same component with JSON.parse(data-props). */
  props: P;
}

/**
 * A plain-DOM island (client/islands/<name>Island.ts, no React in the browser): the server renders `children`,
 * the island's script enhances that markup with `props` (issue 23 item 4: a dialog alone ships no React).
 */
interface ScriptIslandProps<P extends object> {
  name: string;
  /** Must survive JSON: the script reads JSON.parse(data-props). */
  props: P;
  /** The markup the script enhances; none when it works on the page around it. */
  children?: ReactNode;
}

export type IslandProps<P extends object> = HydratedIslandProps<P> | ScriptIslandProps<P>;

/**
 * Server-renders an interactive component and marks it for hydration (or for its script). A hydrated
 * component must render the same markup from the same props in the browser; it cannot use useId (the
 * browser root starts a new id tree) nor read browser-only state during the first render.
 */
export function Island<P extends object>(island: IslandProps<P>): ReactElement {
  useContext(IslandCollector)?.add(island.name);
  const Component = 'component' in island ? island.component : null;
  return (
    <div data-island={island.name} data-props={JSON.stringify(island.props)}>
      {Component ? <Component {...island.props} /> : (island as ScriptIslandProps<P>).children}
    </div>
  );
}
