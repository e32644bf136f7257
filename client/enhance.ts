// Browser side of the plain-DOM islands (client/islands/<name>Island.ts): no React, the island's default
// export enhances each server-rendered placeholder with its props (issue 23 item 4: lighter pages).
import { islandElements } from './islandElements.ts';

export function enhanceIslands<P extends object>(name: string, enhance: (el: HTMLElement, props: P) => void): void {
  for (const { el, props } of islandElements<P>(name)) enhance(el, props);
  // When the page's island became usable, for whoever measures it (User Timing: `npm run bench`, a RUM tool).
  performance.mark(`island:${name}`);
}
