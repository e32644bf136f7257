// Code kept off a page's critical path is imported once the page has loaded: a dynamic import
// started earlier would hold back the load event (and what waits for it) while its chunk downloads.
//   const rules = afterPageLoad(() => import('../../shared/contactInformation.ts'));

export function afterPageLoad<T>(load: () => Promise<T>): Promise<T> {
  const loaded =
    document.readyState === 'complete' ? Promise.resolve() : new Promise<void>((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
  return loaded.then(load);
}
