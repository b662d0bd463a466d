// Webhooks as Stripe sends them: an `event` object POSTed as JSON with a `Stripe-Signature` header
// (t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed with the whsec_… secret>), retried after
// each configured delay until a 2xx answer, with the same event id and a fresh signature each time.
import { createHmac } from 'node:crypto';

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface Delivery {
  eventId: string;
  type: string;
  attempt: number;
  /** The HTTP status of the answer, or why there was none (e.g. "ECONNREFUSED"). */
  status: number | string;
}

/** The Stripe-Signature header for `payload`, as `stripe.webhooks.constructEvent` verifies it. */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export interface WebhookSenderOptions {
  url: string;
  secret: string;
  retryDelaysMs: readonly number[];
  log: (line: string) => void;
  /** An attempt without an answer after this long counts as failed (Stripe waits ~10 s too). */
  timeoutMs?: number;
  /** Called once per event when it is delivered (2xx) or given up: it is no longer pending. */
  settled?: (eventId: string) => void;
}

function failureReason(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause as { code?: unknown } | undefined;
    if (typeof cause?.code === 'string') return cause.code;
    return error.name === 'AbortError' || error.name === 'TimeoutError' ? 'timeout' : error.message;
  }
  return String(error);
}

export class WebhookSender {
  readonly deliveries: Delivery[] = [];
  readonly #options: WebhookSenderOptions;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  constructor(options: WebhookSenderOptions) {
    this.#options = options;
  }

  /** Sends `event`; resolves once the first attempt is over (retries go on in the background). */
  send(event: StripeEvent): Promise<void> {
    // Stripe sends pretty-printed JSON; the signature covers these exact bytes.
    return this.#attempt(event, JSON.stringify(event, null, 2), 1);
  }

  async #attempt(event: StripeEvent, payload: string, attempt: number): Promise<void> {
    if (this.#closed) return;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), this.#options.timeoutMs ?? 10_000);
    timeout.unref();
    this.#inFlight.add(controller);
    let status: number | string;
    try {
      const response = await fetch(this.#options.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signatureHeader(
            payload,
            this.#options.secret,
            Math.floor(Date.now() / 1000),
          ),
        },
        body: payload,
        signal: controller.signal,
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (error) {
      status = failureReason(error);
    } finally {
      clearTimeout(timeout);
      this.#inFlight.delete(controller);
    }
    if (this.#closed) return;
    this.deliveries.push({ eventId: event.id, type: event.type, attempt, status });
    const ok = typeof status === 'number' && status >= 200 && status < 300;
    this.#options.log(
      `webhook ${event.type} ${event.id} attempt ${attempt} → ${status}${ok ? '' : ' (failed)'}`,
    );
    if (ok) {
      this.#options.settled?.(event.id);
      return;
    }
    const delay = this.#options.retryDelaysMs[attempt - 1];
    if (delay === undefined) {
      this.#options.log(`webhook ${event.type} ${event.id}: gave up after ${attempt} attempt(s)`);
      this.#options.settled?.(event.id);
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(event, payload, attempt + 1);
    }, delay);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Cancels pending retries and aborts attempts in flight. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort();
    this.#inFlight.clear();
  }
}
