// The publish pill in the back office's header (issue 27 §7): what is being published — « Vent
// d'Alentejo », réglages… from the publish queue's requests — and when it should be live (the
// server's estimate, counted down here), then 'En ligne à 23:14' in Paris time; or the failure.
// Asked again every second while a publish is queued or running, every 15 s otherwise, and at
// once when a screen announces a change (./publish-store.ts). Screen readers hear each state once:
// the countdown is drawn beside the announced text, hidden from them.
import { onPublishNudge } from './publish-store.ts';
import { frenchHour } from './ui/format.ts';

/** The `admin.publish.*` messages, without their prefix (src/layouts/AdminLayout.astro). */
export type PillTexts = Record<string, string>;

export type PublishChange =
  | { kind: 'work'; title: string }
  | { kind: 'works'; count: number }
  | { kind: 'edition'; title: string }
  | { kind: 'order-of-works' | 'settings' | 'sales' | 'manual' | 'other' };

/** GET /api/admin/publish (api/build/publisher.ts `PublishStatus`). */
export interface PublishStatus {
  state: 'idle' | 'queued' | 'building' | 'failed';
  lastError: string | null;
  lastSuccessAt: string | null;
  changes?: PublishChange[];
  changeCount?: number;
  lastChanges?: PublishChange[];
  etaMs?: number | null;
}

const fill = (text: string | undefined, values: Record<string, string | number>): string =>
  (text ?? '').replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );

const LIST = new Intl.ListFormat('fr', { style: 'long', type: 'conjunction' });

/** One change as the owner reads it: '« Vent d'Alentejo »', 'réglages', '3 œuvres'… */
export function changeText(change: PublishChange, texts: PillTexts): string {
  switch (change.kind) {
    case 'work':
      return fill(texts['change.work'], { title: change.title });
    case 'edition':
      return fill(texts['change.edition'], { title: change.title });
    case 'works':
      return fill(texts['change.works'], { count: change.count });
    case 'order-of-works':
      return texts['change.orderOfWorks'] ?? '';
    default:
      return texts[`change.${change.kind}`] ?? texts['change.other'] ?? '';
  }
}

/** '« Vent d'Alentejo », réglages et 2 autres'; '' when nothing is named. */
export function changesText(changes: PublishChange[], count: number, texts: PillTexts): string {
  const parts = [...new Set(changes.map((c) => changeText(c, texts)).filter(Boolean))];
  if (count > changes.length) parts.push(fill(texts['more'], { count: count - changes.length }));
  return LIST.format(parts);
}

/** 'en ligne dans ~6 s', or 'en ligne dans un instant' for the last second (and a late build). */
export function etaText(ms: number, texts: PillTexts): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds <= 1 ? (texts['etaSoon'] ?? '') : fill(texts['eta'], { seconds });
}

/**
 * What the pill says: `text`, announced once; `eta`, the countdown drawn after it (null when none);
 * `short`, the text for the menu's mirror, which has its own 'Publication :' before it. `msLeft`
 * is the estimate counted down since the status was read.
 */
export function pillText(
  status: PublishStatus,
  texts: PillTexts,
  msLeft: number | null,
): { text: string; eta: string | null; short: string } {
  if (status.state === 'failed') {
    const text = fill(texts['failed'], { error: status.lastError ?? '' });
    return { text, eta: null, short: text };
  }
  if (status.state === 'queued' || status.state === 'building') {
    const changes = status.changes ?? [];
    const what = changesText(changes, status.changeCount ?? changes.length, texts);
    const text = what ? fill(texts['publishing'], { changes: what }) : (texts[status.state] ?? '');
    return { text, eta: msLeft === null ? null : etaText(msLeft, texts), short: what || text };
  }
  const last = status.lastChanges ?? [];
  if (status.lastSuccessAt && last.length) {
    const time = frenchHour(status.lastSuccessAt);
    const text = fill(texts['liveWhat'], { time, changes: changesText(last, last.length, texts) });
    return { text, eta: null, short: text };
  }
  return { text: texts['idle'] ?? '', eta: null, short: texts['idle'] ?? '' };
}

export function startPublishPill(): void {
  const status = document.querySelector<HTMLElement>('[data-publish-status]');
  if (!status) return;
  const mirror = document.querySelector<HTMLElement>('[data-publish-mirror]');
  const texts = JSON.parse(status.dataset['texts'] ?? '{}') as PillTexts;
  const said = document.createElement('span');
  const countdown = document.createElement('span');
  countdown.setAttribute('aria-hidden', 'true');
  status.replaceChildren(said, countdown);
  let timer: number | undefined;
  let ticker: number | undefined;
  let current: PublishStatus | null = null;
  /** When the current estimate runs out, on this browser's clock. */
  let deadline: number | null = null;

  const draw = () => {
    if (!current) return;
    const msLeft = deadline === null ? null : Math.max(0, deadline - Date.now());
    const { text, eta, short } = pillText(current, texts, msLeft);
    // Rewritten only when it changes: the live region speaks each new state once.
    if (said.textContent !== text) said.textContent = text;
    countdown.textContent = eta ? ` — ${eta}` : '';
    if (mirror) mirror.textContent = eta ? `${short} — ${eta}` : short;
  };
  const show = (value: PublishStatus) => {
    current = value;
    const active = value.state === 'queued' || value.state === 'building';
    deadline = active && typeof value.etaMs === 'number' ? Date.now() + value.etaMs : null;
    status.dataset['state'] = value.state;
    status.classList.toggle('border-red-700', value.state === 'failed');
    status.classList.toggle('text-red-800', value.state === 'failed');
    draw();
    window.clearInterval(ticker);
    if (deadline !== null) ticker = window.setInterval(draw, 1000);
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
        value.state === 'queued' || value.state === 'building' ? 1000 : 15000,
      );
    } catch {
      timer = window.setTimeout(() => void refresh(), 15000);
    }
  };
  void refresh();
  // A screen that changed something asks for a fresh status at once.
  onPublishNudge(() => void refresh());
}
