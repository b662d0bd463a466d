// Every confirmation of the back office in the kit's dialog (issue 27: no window.confirm): an
// action awaits `confirmDialog({...})`, which mounts ConfirmDialog, resolves true on the confirm
// button and false on 'Annuler', Escape or a click on the backdrop, then unmounts. The focus goes
// back to what had it when the dialog opened.
import { createRoot } from 'react-dom/client';
import ConfirmDialog from './ConfirmDialog.tsx';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'danger' | 'neutral';
}

let counter = 0;

export function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    const finish = (ok: boolean) => {
      queueMicrotask(() => {
        root.unmount();
        host.remove();
        if (opener?.isConnected) opener.focus();
      });
      resolve(ok);
    };
    counter += 1;
    root.render(
      <ConfirmDialog
        id={`confirm-${counter}`}
        title={options.title}
        confirmLabel={options.confirmLabel}
        cancelLabel={options.cancelLabel ?? 'Annuler'}
        tone={options.tone ?? 'neutral'}
        onConfirm={() => finish(true)}
        onCancel={() => finish(false)}
      >
        <p>{options.message}</p>
      </ConfirmDialog>,
    );
  });
}
