// The works screen's toasts (back office §2, §9): success or error, dismissable, gone after 5 s,
// announced by a polite live region.
import { useCallback, useRef, useState } from 'react';
import type { Translate } from '../ui/kit.tsx';

export interface Toast {
  id: number;
  tone: 'success' | 'error';
  text: string;
}

/** back office §9: a toast hides itself after 5 seconds. */
const TOAST_MS = 5000;

export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback(
    (id: number) => setToasts((all) => all.filter((x) => x.id !== id)),
    [],
  );
  const toast = useCallback(
    (tone: Toast['tone'], text: string) => {
      const id = next.current++;
      setToasts((all) => [...all, { id, tone, text }]);
      window.setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );
  return { toasts, toast, dismiss };
}

export function Toasts({
  toasts,
  dismiss,
  t,
}: {
  toasts: Toast[];
  dismiss: (id: number) => void;
  t: Translate;
}) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed right-4 bottom-4 z-50 w-[min(24rem,calc(100vw-2rem))]"
    >
      <ul className="flex flex-col gap-2">
        {toasts.map((item) => (
          <li
            key={item.id}
            className={`flex items-start gap-3 rounded-lg border p-3 text-sm shadow-lg ${
              item.tone === 'success'
                ? 'border-green-800 bg-green-50 text-green-950'
                : 'border-red-700 bg-red-50 text-red-950'
            }`}
          >
            <span className="flex-1">{item.text}</span>
            <button
              type="button"
              aria-label={t('toast.close')}
              className="-m-2 inline-flex min-h-11 min-w-11 items-center justify-center rounded leading-none"
              onClick={() => dismiss(item.id)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
