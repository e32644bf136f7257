// Browser side of the React islands: each island bundle calls hydrateIslands with its own component, which
// attaches React to the server-rendered markup of every matching placeholder on the page.
import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { islandElements } from './islandElements.ts';

export function hydrateIslands<P extends object>(name: string, Component: ComponentType<P>): void {
  for (const { el, props } of islandElements<P>(name)) hydrateRoot(el, <Component {...props} />);
}
