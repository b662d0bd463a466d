// The publish pill in the back office's header: 'Site à jour' / 'Publication en cours…' / the
// failure, asked again every few seconds while a publish is queued or running, and at once when a
// screen announces a change (./publish-store.ts).
import { publishNudge } from './publish-store.ts';

interface Texts {
  idle: string;
  queued: string;
  building: string;
  failed: string;
}

interface PublishStatus {
  state: 'idle' | 'queued' | 'building' | 'failed';
  lastError: string | null;
}

export function startPublishPill(): void {
  const status = document.querySelector<HTMLElement>('[data-publish-status]');
  if (!status) return;
  const texts = JSON.parse(status.dataset['texts'] ?? '{}') as Texts;
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
  // A screen that changed something asks for a fresh status at once (listen() skips the current value).
  publishNudge.listen(() => void refresh());
}
