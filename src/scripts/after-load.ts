// Network refreshes that are not needed for the first paint (cart count, live availability) wait
// for the page's load event and an idle moment, so they never compete with the images above the
// fold. The prerendered HTML (and the remembered cart count) shows meanwhile.
export function afterLoad(task: () => void): void {
  const idle = () =>
    'requestIdleCallback' in window
      ? window.requestIdleCallback(task, { timeout: 1000 })
      : setTimeout(task, 0);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
