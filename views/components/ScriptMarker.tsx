// A hidden form field that exists only once the page's JavaScript runs, so the server can tell an enhanced post from
// a plain one and answer it with a modal rather than a screen of its own (e.g. the tax failure dialog,
// customer-information.md §4.5, §8). Put it inside the form:
//   <ScriptMarker name="enhanced" />   posts enhanced=yes once the scriptMarker island has hydrated
import { useHydrated } from '../../client/components/useHydrated.ts';
import { Island } from './Island.tsx';

export interface ScriptMarkerProps {
  name: string;
}

/** The field (the scriptMarker island's component): nothing on the server and while hydrating, so both renders agree. */
export function ScriptMarkerField({ name }: ScriptMarkerProps) {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name={name} value="yes" /> : null;
}

/** The marker in a form: the scriptMarker island. */
export function ScriptMarker(props: ScriptMarkerProps) {
  return <Island name="scriptMarker" component={ScriptMarkerField} props={props} />;
}
