// A work's photos (src/components/work/WorkViews.astro): a thumbnail shows its photo in the main
// place, with its caption and zoom; the arrow keys, Home and End move between thumbnails. Without
// this script every photo stays on the page, one under the other.

for (const root of document.querySelectorAll<HTMLElement>('[data-views]')) setUpViews(root);

function setUpViews(root: HTMLElement): void {
  const figures = [...root.querySelectorAll<HTMLElement>('[data-view]')];
  const thumbs = [...root.querySelectorAll<HTMLButtonElement>('[data-view-thumb]')];
  const show = (index: number, focus: boolean) => {
    figures.forEach((figure, i) => figure.classList.toggle('js:hidden', i !== index));
    thumbs.forEach((thumb, i) => thumb.setAttribute('aria-pressed', String(i === index)));
    if (focus) thumbs[index]?.focus();
  };
  thumbs.forEach((thumb, index) => {
    thumb.addEventListener('click', () => show(index, false));
    thumb.addEventListener('keydown', (event) => {
      const last = thumbs.length - 1;
      const target = {
        ArrowRight: index === last ? 0 : index + 1,
        ArrowDown: index === last ? 0 : index + 1,
        ArrowLeft: index === 0 ? last : index - 1,
        ArrowUp: index === 0 ? last : index - 1,
        Home: 0,
        End: last,
      }[event.key];
      if (target === undefined) return;
      event.preventDefault();
      show(target, true);
    });
  });
}
