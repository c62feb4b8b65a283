/**
 * Whether the tab can be seen. Rancher keeps every tab of a page mounted and hides the inactive ones
 * with display:none, and the browser tab may be in the background; either way nothing should be polled.
 */
function pageVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState !== 'hidden';
}

export function watchVisibility(el: Element, onChange: (visible: boolean) => void): () => void {
  let onScreen = typeof IntersectionObserver === 'undefined';
  let last: boolean | null = null;
  const report = () => {
    const visible = onScreen && pageVisible();

    if (visible !== last) {
      last = visible;
      onChange(visible);
    }
  };

  let observer: IntersectionObserver | null = null;

  if (typeof IntersectionObserver !== 'undefined') {
    observer = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];

      if (entry) {
        onScreen = entry.isIntersecting;
        report();
      }
    });
    observer.observe(el);
  } else {
    report();
  }
  document.addEventListener('visibilitychange', report);

  return () => {
    observer?.disconnect();
    document.removeEventListener('visibilitychange', report);
  };
}

/**
 * Whether the page was opened on the named tab (its `#<name>` in the URL) and the browser shows it: the shell
 * then selects the tab as soon as the page is drawn.
 */
export function openedOnTab(hash: string | undefined | null, name: string): boolean {
  return hash === `#${ name }` && pageVisible();
}
