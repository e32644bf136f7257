// A hidden form field that exists only once the page's JavaScript runs, so the server can tell an enhanced post from
// a plain one and answer it with a modal rather than a screen of its own (e.g. the tax failure dialog,
// customer-information.md §4.5, §8). Put it inside the form:
//   <Island name="scriptMarker" props={{ name: 'enhanced' }} />   posts enhanced=yes
// Plain DOM, no React (issue 23 item 5).
import { h } from '../components/dom.ts';

export interface ScriptMarkerProps {
  name: string;
}

export default function enhanceScriptMarker(el: HTMLElement, { name }: ScriptMarkerProps): void {
  el.append(h('input', { type: 'hidden', name, value: 'yes' }));
}
