// The admin shell's menu on small screens and the logout (after the kit's confirmation dialog).
import { confirmDialog } from './ui/confirm.tsx';

export function startShellMenu(): void {
  const menu = document.querySelector<HTMLButtonElement>('[data-admin-menu]');
  const nav = document.getElementById('admin-nav');
  menu?.addEventListener('click', () => {
    const open = menu.getAttribute('aria-expanded') !== 'true';
    menu.setAttribute('aria-expanded', String(open));
    nav?.classList.toggle('hidden', !open);
  });

  const logout = document.querySelector<HTMLButtonElement>('[data-admin-logout]');
  logout?.addEventListener('click', () => {
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
