// The zoom view of a work (issue 9; deep zoom, issue 25): a modal dialog showing the master at its
// own size (up to 4 000 px, the `full` variant), loaded only when the visitor opens it — the photo
// already on the page stands in, under a spinner, until it arrives. It zooms up to the master's
// native resolution (one image pixel per CSS pixel: zoom-scale.ts). Wheel, pinch, drag,
// double-tap or double-click, and the keyboard (+ − 0 and the arrows; Escape closes) move it.
// Part of the page script (≈1.4 KB gzip): a dynamic import would pull Vite's preload helper into
// a chunk shared with the contact page's script — a second request on every catalogue page,
// which costs more LCP than these bytes. The viewer's DOM is built on first use only.

export interface ZoomLabels {
  dialog: string;
  zoomIn: string;
  zoomOut: string;
  reset: string;
  close: string;
  loading: string;
}

export interface ZoomRequest {
  src: string;
  alt: string;
  /** The natural size of `src`: the largest scale shows it pixel for pixel. */
  width: number;
  height: number;
  labels: ZoomLabels;
  /** Focus goes back here on close. */
  opener: HTMLElement;
}

/** The page's scroll lock and focus trap (src/scripts/layers.ts), handed in. */
export interface ZoomHelpers {
  trapFocus(dialog: HTMLDialogElement): void;
}

import { clampView, fitSize, maxScale, zoomAt } from './zoom-scale.ts';

const MIN_SCALE = 1;
const STEP = 1.5;
const PAN_STEP = 80;
const DOUBLE_TAP_MS = 300;

const BUTTON =
  'inline-flex h-11 w-11 items-center justify-center rounded-full bg-white/90 text-ink text-xl shadow hover:bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-40';

let viewer: Viewer | undefined;

export function openZoom(request: ZoomRequest, helpers: ZoomHelpers): void {
  viewer ??= new Viewer(helpers);
  viewer.open(request);
}

class Viewer {
  private readonly dialog: HTMLDialogElement;
  private readonly stage: HTMLDivElement;
  private readonly image: HTMLImageElement;
  private readonly level: HTMLOutputElement;
  private readonly spinner: HTMLParagraphElement;
  private readonly buttons: Record<'zoomIn' | 'zoomOut' | 'reset' | 'close', HTMLButtonElement>;
  private scale = 1;
  private x = 0;
  private y = 0;
  /** The image's size when it fits the stage (scale 1). */
  private fit = { width: 0, height: 0 };
  private natural = { width: 1, height: 1 };
  private max = 1;
  private opener: HTMLElement | null = null;
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private pinch: { distance: number; scale: number } | null = null;
  private lastTap = { time: 0, x: 0, y: 0 };
  private lastTapToggle = 0;

  constructor(helpers: ZoomHelpers) {
    this.dialog = document.createElement('dialog');
    this.dialog.className =
      'fixed inset-0 m-0 h-dvh max-h-none w-screen max-w-none overflow-hidden bg-black p-0 text-white backdrop:bg-black';
    this.dialog.dataset['zoomViewer'] = '';
    this.stage = document.createElement('div');
    this.stage.className = 'absolute inset-0 cursor-grab touch-none select-none overflow-hidden';
    this.stage.dataset['zoomStage'] = '';
    this.image = document.createElement('img');
    this.image.className = 'absolute top-0 left-0 max-w-none origin-top-left';
    this.image.draggable = false;
    this.image.decoding = 'async';
    this.stage.append(this.image);
    this.spinner = document.createElement('p');
    this.spinner.className = 'absolute inset-x-0 top-1/2 text-center text-sm text-white/80';
    this.level = document.createElement('output');
    this.level.className = 'rounded bg-black/60 px-2 py-1 text-sm tabular-nums';
    this.level.setAttribute('aria-live', 'polite');
    const make = (name: keyof Viewer['buttons'], text: string) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = BUTTON;
      button.textContent = text;
      button.dataset['zoomControl'] = name;
      return button;
    };
    this.buttons = {
      zoomOut: make('zoomOut', '−'),
      zoomIn: make('zoomIn', '+'),
      reset: make('reset', ''),
      close: make('close', '×'),
    };
    // Fit to screen: four corners pointing in.
    this.buttons.reset.innerHTML =
      '<svg aria-hidden="true" viewBox="0 0 24 24" class="h-5 w-5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"/></svg>';
    const bar = document.createElement('div');
    bar.className = 'absolute inset-x-0 bottom-0 flex items-center justify-center gap-3 p-4';
    bar.append(this.buttons.zoomOut, this.level, this.buttons.zoomIn, this.buttons.reset);
    const top = document.createElement('div');
    top.className = 'absolute top-0 right-0 p-4';
    top.append(this.buttons.close);
    this.dialog.append(this.stage, this.spinner, bar, top);
    document.body.append(this.dialog);
    helpers.trapFocus(this.dialog);

    this.buttons.zoomIn.addEventListener('click', () => this.zoomBy(STEP));
    this.buttons.zoomOut.addEventListener('click', () => this.zoomBy(1 / STEP));
    this.buttons.reset.addEventListener('click', () => this.reset());
    this.buttons.close.addEventListener('click', () => this.dialog.close());
    this.dialog.addEventListener('close', () => {
      this.image.removeAttribute('src');
      this.image.style.background = '';
      this.opener?.focus();
    });
    this.dialog.addEventListener('keydown', (event) => this.onKey(event));
    this.stage.addEventListener('wheel', (event) => this.onWheel(event), { passive: false });
    this.stage.addEventListener('pointerdown', (event) => this.onPointerDown(event));
    this.stage.addEventListener('pointermove', (event) => this.onPointerMove(event));
    for (const type of ['pointerup', 'pointercancel', 'pointerleave'] as const)
      this.stage.addEventListener(type, (event) => this.onPointerUp(event));
    this.stage.addEventListener('dblclick', (event) => {
      // A double tap was handled on its own (touch browsers may follow it with a dblclick).
      if (performance.now() - this.lastTapToggle < 600) return;
      this.toggleAt(event.clientX, event.clientY);
    });
    this.image.addEventListener('load', () => {
      this.spinner.hidden = true;
      // The photo from the page stood in until now.
      this.image.style.background = '';
    });
    window.addEventListener('resize', () => {
      if (this.dialog.open) this.layout();
    });
  }

  open(request: ZoomRequest): void {
    const { labels } = request;
    this.opener = request.opener;
    this.dialog.setAttribute('aria-label', labels.dialog);
    this.buttons.zoomIn.setAttribute('aria-label', labels.zoomIn);
    this.buttons.zoomOut.setAttribute('aria-label', labels.zoomOut);
    this.buttons.reset.setAttribute('aria-label', labels.reset);
    this.buttons.close.setAttribute('aria-label', labels.close);
    this.spinner.textContent = labels.loading;
    this.spinner.hidden = false;
    this.natural = { width: request.width, height: request.height };
    this.image.alt = request.alt;
    this.image.width = request.width;
    this.image.height = request.height;
    // The photo the page shows (already loaded) stands in while the large one arrives.
    const shown = request.opener
      .closest('[data-zoom-scope]')
      ?.querySelector<HTMLImageElement>('img')?.currentSrc;
    this.image.style.background = shown ? `url("${shown}") center / 100% 100% no-repeat` : '';
    this.image.src = request.src;
    this.stage.dataset['natural'] = String(request.width);
    this.dialog.showModal();
    this.layout();
    this.buttons.zoomIn.focus();
  }

  /** Fits the image in the window at scale 1 and centres it. */
  private layout(): void {
    const stage = { width: this.stage.clientWidth, height: this.stage.clientHeight };
    this.fit = fitSize(stage, this.natural);
    this.max = maxScale(this.natural, this.fit);
    this.stage.dataset['maxScale'] = String(this.max);
    this.image.style.width = `${this.fit.width}px`;
    this.image.style.height = `${this.fit.height}px`;
    this.reset();
  }

  private view(): { scale: number; x: number; y: number } {
    return { scale: this.scale, x: this.x, y: this.y };
  }

  private reset(): void {
    this.scale = 1;
    this.x = (this.stage.clientWidth - this.fit.width) / 2;
    this.y = (this.stage.clientHeight - this.fit.height) / 2;
    this.apply();
  }

  /** Zooms by `factor` keeping the point (clientX, clientY) still, the centre by default. */
  private zoomBy(factor: number, clientX?: number, clientY?: number): void {
    const box = this.stage.getBoundingClientRect();
    const px = (clientX ?? box.left + box.width / 2) - box.left;
    const py = (clientY ?? box.top + box.height / 2) - box.top;
    ({ scale: this.scale, x: this.x, y: this.y } = zoomAt(this.view(), factor, px, py, this.max));
    this.apply();
  }

  private toggleAt(clientX: number, clientY: number): void {
    if (this.scale > 1.01) this.reset();
    else this.zoomBy(2.5, clientX, clientY);
  }

  /** Keeps the image over the stage: centred when smaller, edges never inside when larger. */
  private clamp(): void {
    const stage = { width: this.stage.clientWidth, height: this.stage.clientHeight };
    ({ x: this.x, y: this.y } = clampView(this.view(), this.fit, stage));
  }

  private apply(): void {
    this.clamp();
    this.image.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.scale})`;
    this.stage.dataset['scale'] = this.scale.toFixed(2);
    this.level.value = `${Math.round(this.scale * 100)} %`;
    const { zoomIn, zoomOut, reset } = this.buttons;
    const atMin = this.scale <= MIN_SCALE;
    const atMax = this.scale >= this.max;
    // A button disabled under the keyboard's focus would drop it out of the dialog: it moves on.
    const active = document.activeElement;
    if ((atMax && active === zoomIn) || (atMin && active === zoomOut))
      (atMax && atMin ? reset : atMax ? zoomOut : zoomIn).focus();
    zoomOut.disabled = atMin;
    zoomIn.disabled = atMax;
  }

  private onKey(event: KeyboardEvent): void {
    const pan = (dx: number, dy: number) => {
      this.x += dx;
      this.y += dy;
      this.apply();
    };
    const actions: Record<string, () => void> = {
      '+': () => this.zoomBy(STEP),
      '=': () => this.zoomBy(STEP),
      '-': () => this.zoomBy(1 / STEP),
      _: () => this.zoomBy(1 / STEP),
      '0': () => this.reset(),
      ArrowLeft: () => pan(PAN_STEP, 0),
      ArrowRight: () => pan(-PAN_STEP, 0),
      ArrowUp: () => pan(0, PAN_STEP),
      ArrowDown: () => pan(0, -PAN_STEP),
    };
    const action = actions[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    action();
  }

  private onWheel(event: WheelEvent): void {
    event.preventDefault();
    this.zoomBy(Math.exp(-event.deltaY * 0.002), event.clientX, event.clientY);
  }

  private onPointerDown(event: PointerEvent): void {
    this.stage.setPointerCapture(event.pointerId);
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pointers.size === 2) this.pinch = { distance: this.distance(), scale: this.scale };
    if (event.pointerType !== 'mouse' && this.pointers.size === 1) {
      const now = performance.now();
      const near = Math.hypot(event.clientX - this.lastTap.x, event.clientY - this.lastTap.y) < 40;
      if (now - this.lastTap.time < DOUBLE_TAP_MS && near) {
        this.toggleAt(event.clientX, event.clientY);
        this.lastTap.time = 0;
        this.lastTapToggle = now;
      } else {
        this.lastTap = { time: now, x: event.clientX, y: event.clientY };
      }
    }
  }

  private onPointerMove(event: PointerEvent): void {
    const previous = this.pointers.get(event.pointerId);
    if (!previous) return;
    const current = { x: event.clientX, y: event.clientY };
    this.pointers.set(event.pointerId, current);
    if (this.pinch && this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()] as [
        { x: number; y: number },
        { x: number; y: number },
      ];
      const wanted = (this.pinch.scale * this.distance()) / this.pinch.distance;
      this.zoomBy(wanted / this.scale, (a.x + b.x) / 2, (a.y + b.y) / 2);
      return;
    }
    this.x += current.x - previous.x;
    this.y += current.y - previous.y;
    this.apply();
  }

  private onPointerUp(event: PointerEvent): void {
    this.pointers.delete(event.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
  }

  private distance(): number {
    const [a, b] = [...this.pointers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 1;
  }
}
