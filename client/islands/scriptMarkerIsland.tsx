// The hidden field that tells the server a post came from a page running JavaScript (views/components/ScriptMarker.tsx).
export { ScriptMarkerField as default } from '../../views/components/ScriptMarker.tsx';
