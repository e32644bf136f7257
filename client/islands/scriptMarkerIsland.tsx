// A hidden form field that exists only once the page's JavaScript runs, so the server can tell an
// enhanced post from a plain one and answer it with a modal rather than a screen of its own (e.g. the
// tax failure dialog, customer-information.md §4.5, §8). Put it inside the form:
//   <Island name="scriptMarker" component={ScriptMarker} props={{ name: 'enhanced' }} />   posts enhanced=yes
import { useHydrated } from '../components/useHydrated.ts';

export interface ScriptMarkerProps {
  name: string;
}

export default function ScriptMarker({ name }: ScriptMarkerProps) {
  // The server and the first browser render agree (nothing); the field appears after hydration.
  const running = useHydrated();
  return running ? <input type="hidden" name={name} value="yes" /> : null;
}
