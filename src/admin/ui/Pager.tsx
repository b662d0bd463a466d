// The back office's pager ('Précédent' / 'Page x sur y' / 'Suivant', back office §2 and §9): one
// navigation landmark named by the screen, the page's text announced when it changes, the buttons
// disabled at either end and while a page is being read.
import { BUTTON } from './kit.tsx';

interface Props {
  /** The landmark's name ('Pages de la liste des clients'). */
  label: string;
  /** 'Page 2 sur 3', already translated. */
  status: string;
  previousLabel: string;
  nextLabel: string;
  page: number;
  pages: number;
  busy?: boolean;
  onPage: (page: number) => void;
}

export default function Pager({
  label,
  status,
  previousLabel,
  nextLabel,
  page,
  pages,
  busy = false,
  onPage,
}: Props) {
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
