// The re-authentication dialog (docs/decisions/037): when an action answers `reauth_required`
// (erasing a customer, refunding, changing payment settings, inviting an administrator), adminCall
// opens this dialog — the authenticator app's code when the second factor is on, else the
// password — sends it to POST /api/admin/reauth and, once accepted, sends the action again. It
// mounts itself, so no screen has to carry it; its French texts come from the shell
// (src/layouts/AdminLayout.astro, `data-reauth-texts`).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import Modal from './ui/Modal.tsx';
import { adminCall } from './api.ts';
import { INPUT, PRIMARY, BUTTON } from './ui/kit.tsx';
import type { ReauthMethod } from '../schemas/second-factor.ts';

type Texts = Record<string, string>;

function shellTexts(): Texts {
  const raw = document.querySelector<HTMLElement>('[data-reauth-texts]')?.dataset['reauthTexts'];
  return raw ? (JSON.parse(raw) as Texts) : {};
}

let pending: Promise<boolean> | null = null;

/** Asks the administrator to confirm it is them; true once the server accepted the proof. */
export function askReauth(method: ReauthMethod): Promise<boolean> {
  // Two actions refused at once share one dialog.
  pending ??= new Promise<boolean>((resolve) => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    const finish = (ok: boolean) => {
      pending = null;
      // After the dialog's own cleanup has put the focus back where it was.
      queueMicrotask(() => {
        root.unmount();
        host.remove();
      });
      resolve(ok);
    };
    root.render(<ReauthDialog method={method} texts={shellTexts()} onDone={finish} />);
  });
  return pending;
}

interface Props {
  method: ReauthMethod;
  texts: Texts;
  onDone: (ok: boolean) => void;
}

export function ReauthDialog({ method, texts, onDone }: Props) {
  const t = (key: string) => texts[key] ?? key;
  const handle = useRef<HTMLDialogElement | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const accepted = useRef(false);
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);

  useEffect(() => {
    input.current?.focus({ preventScroll: true });
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = input.current?.value ?? '';
    if (value.trim() === '') {
      setError(t(method === 'code' ? 'codeRequired' : 'passwordRequired'));
      input.current?.focus();
      return;
    }
    setSending(true);
    setError('');
    const result = await adminCall(
      'POST',
      '/api/admin/reauth',
      method === 'code' ? { code: value } : { password: value },
    );
    setSending(false);
    if (result.ok) {
      accepted.current = true;
      handle.current?.close();
      return;
    }
    const known: Record<string, string> = {
      invalid_credentials: t('wrongPassword'),
      invalid_second_factor: t('wrongCode'),
    };
    setError(known[result.error.code] ?? `${t('error')} ${result.error.message}`);
    if (input.current) {
      input.current.value = '';
      input.current.focus();
    }
  }

  const field = method === 'code' ? 'code' : 'password';
  return (
    <Modal
      id="admin-reauth"
      title={t('title')}
      closeLabel={t('close')}
      handle={handle}
      onClose={() => onDone(accepted.current)}
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <p>{t(method === 'code' ? 'introCode' : 'introPassword')}</p>
        <div>
          <label htmlFor="admin-reauth-input" className="font-medium">
            {t(field)}
          </label>
          <input
            ref={input}
            id="admin-reauth-input"
            name={field}
            type={method === 'code' ? 'text' : 'password'}
            autoComplete={method === 'code' ? 'one-time-code' : 'current-password'}
            inputMode={method === 'code' ? 'numeric' : undefined}
            maxLength={method === 'code' ? 32 : 256}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={
              [method === 'code' ? 'admin-reauth-hint' : '', error ? 'admin-reauth-error' : '']
                .filter(Boolean)
                .join(' ') || undefined
            }
            className={INPUT}
          />
          {method === 'code' && (
            <p id="admin-reauth-hint" className="mt-1 text-sm text-black/70">
              {t('codeHint')}
            </p>
          )}
          <p
            id="admin-reauth-error"
            role="alert"
            className="mt-1 text-sm font-medium text-red-800 empty:hidden"
          >
            {error}
          </p>
        </div>
        <div className="flex flex-col-reverse gap-3 border-t border-black/10 pt-4 sm:flex-row sm:justify-end">
          <button type="button" className={BUTTON} onClick={() => handle.current?.close()}>
            {t('cancel')}
          </button>
          <button type="submit" className={PRIMARY} aria-disabled={sending || undefined}>
            {sending ? t('sending') : t('submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
