// Building a little markup in plain-DOM islands (issue 23 item 5: no React in the browser): the same elements the
// server's React view renders, so that a script's update looks like the page the server sends.
import { CSRF_FIELD, readCsrfToken } from './csrfToken.ts';

type Child = Node | string | null | false | undefined;

/** An element with attributes (`className` for class) and children; null or false children are left out. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name === 'className' ? 'class' : name, value);
  for (const child of children) if (child) el.append(child);
  return el;
}

/** A POST form with the page's anti-forgery token (as views/components/CsrfField.tsx) and one submit button. */
export function postForm(action: string, label: string, className?: string): HTMLFormElement {
  const token = readCsrfToken();
  return h(
    'form',
    { method: 'post', action, ...(className ? { className } : {}) },
    token ? h('input', { type: 'hidden', name: CSRF_FIELD, value: token }) : null,
    h('button', { type: 'submit', className: 'btn' }, label),
  );
}

/**
 * Makes `parent`'s children `wanted` (null or false left out), keeping each child that already equals the one wanted
 * in its place (the same element, so its focus and a live region's identity stay).
 */
export function patchChildren(parent: Element, wanted: Child[]): void {
  const nodes = wanted.filter((n): n is Node | string => Boolean(n)).map((n) => (typeof n === 'string' ? document.createTextNode(n) : n));
  const current = [...parent.childNodes];
  nodes.forEach((node, i) => {
    const there = current[i];
    if (there === node || there?.isEqualNode(node)) return;
    if (there) there.replaceWith(node);
    else parent.append(node);
  });
  for (const extra of current.slice(nodes.length)) extra.remove();
}
