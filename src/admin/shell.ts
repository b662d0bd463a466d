// The admin shell's script: the small-screen menu, logout after confirmation, and the publish
// status ('Site à jour' / 'Publication en cours…' / the failure), asked again every few seconds
// while a publish is queued or running.
interface Texts {
  idle: string;
  queued: string;
  building: string;
  failed: string;
  confirm: string;
}

interface PublishStatus {
  state: 'idle' | 'queued' | 'building' | 'failed';
  lastError: string | null;
}

export function startShell(): void {
  const menu = document.querySelector<HTMLButtonElement>('[data-admin-menu]');
  const nav = document.getElementById('admin-nav');
  menu?.addEventListener('click', () => {
    const open = menu.getAttribute('aria-expanded') !== 'true';
    menu.setAttribute('aria-expanded', String(open));
    nav?.classList.toggle('hidden', !open);
  });

  const status = document.querySelector<HTMLElement>('[data-publish-status]');
  const texts = JSON.parse(status?.dataset['texts'] ?? '{}') as Texts;

  document.querySelector('[data-admin-logout]')?.addEventListener('click', () => {
    if (!window.confirm(texts.confirm)) return;
    void fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin' }).finally(() =>
      window.location.assign('/admin/login'),
    );
  });

  if (!status) return;
  let timer: number | undefined;
  const show = (value: PublishStatus) => {
    status.dataset['state'] = value.state;
    status.textContent =
      value.state === 'failed'
        ? texts.failed.replace('{error}', value.lastError ?? '')
        : texts[value.state];
    status.classList.toggle('border-red-700', value.state === 'failed');
    status.classList.toggle('text-red-800', value.state === 'failed');
  };
  const refresh = async () => {
    window.clearTimeout(timer);
    try {
      const response = await fetch('/api/admin/publish', { credentials: 'same-origin' });
      if (!response.ok) return;
      const value = (await response.json()) as PublishStatus;
      show(value);
      timer = window.setTimeout(
        () => void refresh(),
        value.state === 'queued' || value.state === 'building' ? 2000 : 15000,
      );
    } catch {
      timer = window.setTimeout(() => void refresh(), 15000);
    }
  };
  void refresh();
  // A screen that changed something asks for a fresh status at once.
  window.addEventListener('admin:changed', () => void refresh());
}
