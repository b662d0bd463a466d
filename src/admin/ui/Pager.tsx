// The back office's pager ('Précédent' / 'Page x sur y' / 'Suivant', back office §2 and §9): one
// navigation landmark named by the screen, the page's text announced when it changes, the buttons
// disabled at either end and while a page is being read; nothing at all when there is one page.
// Its words are the screen's texts: 'pagination' (the landmark's name, 'Pages de la liste des
// clients'), 'page' ('Page {page} sur {pages}'), 'previous' and 'next'.
import { BUTTON, type Translate } from './kit.tsx';

interface Props {
  t: Translate;
  page: number;
  pages: number;
  busy?: boolean;
  onPage: (page: number) => void;
}

export default function Pager({ t, page, pages, busy = false, onPage }: Props) {
  if (pages <= 1) return null;
  const label = t('pagination');
  const status = t('page', { page, pages });
  const previousLabel = t('previous');
  const nextLabel = t('next');
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3">
      <button
        type="button"
        className={BUTTON}
        disabled={page <= 1 || busy}
        onClick={() => onPage(Math.max(1, page - 1))}
      >
        {previousLabel}
      </button>
      <p className="text-sm tabular-nums" aria-live="polite">
        {status}
      </p>
      <button
        type="button"
        className={BUTTON}
        disabled={page >= pages || busy}
        onClick={() => onPage(Math.min(pages, page + 1))}
      >
        {nextLabel}
      </button>
    </nav>
  );
}
