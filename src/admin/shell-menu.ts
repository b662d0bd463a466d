// The admin shell's menu on small screens (issue 27 §5) and the logout (after the kit's
// confirmation dialog). The menu is a disclosure: the button toggles it, Escape closes it and
// gives the focus back to the button. (On a phone the publish status is a dot in the bar; the
// menu repeats its text in [data-publish-mirror], written by ./publish-pill.ts.)
import { confirmDialog } from './ui/confirm.tsx';

function startMenu(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-admin-menu]');
  const panel = document.getElementById(button?.getAttribute('aria-controls') ?? '');
  if (!button || !panel) return;
  const isOpen = () => button.getAttribute('aria-expanded') === 'true';
  const setOpen = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    panel.classList.toggle('hidden', !open);
  };
  button.addEventListener('click', () => setOpen(!isOpen()));
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isOpen()) return;
    // A dialog open over the menu (the logout's confirmation) takes this Escape for itself.
    if (document.querySelector('dialog[open]')) return;
    setOpen(false);
    button.focus();
  });
}

function startLogout(): void {
  for (const logout of document.querySelectorAll<HTMLButtonElement>('[data-admin-logout]')) {
    logout.addEventListener('click', () => {
      void (async () => {
        const ok = await confirmDialog({
          title: logout.dataset['confirmTitle'] ?? '',
          message: logout.dataset['confirm'] ?? '',
          confirmLabel: logout.dataset['confirmLabel'] ?? '',
        });
        if (!ok) return;
        await fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin' }).catch(
          () => undefined,
        );
        window.location.assign('/admin/login');
      })();
    });
  }
}

export function startShellMenu(): void {
  startMenu();
  startLogout();
}
