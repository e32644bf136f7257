// Where an island runs: every placeholder the server rendered for it (views/components/Island.tsx) with its props.

export function islandElements<P extends object>(name: string): { el: HTMLElement; props: P }[] {
  const found: { el: HTMLElement; props: P }[] = [];
  for (const el of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    try {
      found.push({ el, props: JSON.parse(el.dataset.props ?? '{}') as P });
    } catch {
      // Leave the server-rendered HTML working as is rather than break the page.
    }
  }
  return found;
}
