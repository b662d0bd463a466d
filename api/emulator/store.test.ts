import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StripeApiError } from './errors.ts';
import { Params, parseForm } from './form.ts';
import { EmulatorStore } from './store.ts';

/** A session request as stripe-node encodes it: one 350 € original, two 45 € prints. */
function sessionForm(extra: Record<string, string> = {}): Params {
  const form = new URLSearchParams({
    mode: 'payment',
    'line_items[0][price_data][currency]': 'eur',
    'line_items[0][price_data][unit_amount]': '35000',
    'line_items[0][price_data][product_data][name]': 'Marée haute',
    'line_items[0][quantity]': '1',
    'line_items[1][price_data][currency]': 'eur',
    'line_items[1][price_data][unit_amount]': '4500',
    'line_items[1][price_data][product_data][name]': 'Tirage',
    'line_items[1][quantity]': '2',
    success_url: 'http://localhost:4321/success?session_id={CHECKOUT_SESSION_ID}',
    ...extra,
  });
  return new Params(parseForm(form.toString()));
}

describe('EmulatorStore', () => {
  let events: Array<{ type: string; id: string; status: string }>;
  let store: EmulatorStore;

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
    events = [];
    store = new EmulatorStore({
      publicBaseUrl: 'http://localhost:4321/',
      emit: (type, session) => events.push({ type, id: session.id, status: session.status }),
    });
  });

  afterEach(() => {
    store.close();
    vi.useRealTimers();
  });

  it('expires an open session by itself when expires_at passes', () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 30 * 60;
    const session = store.createSession(sessionForm({ expires_at: String(expiresAt) }));
    expect(session.url).toBe(`http://localhost:4321/emulator/checkout/${session.id}`);
    vi.advanceTimersByTime(30 * 60 * 1000 - 1);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual([
      { type: 'checkout.session.expired', id: session.id, status: 'expired' },
    ]);
    expect(store.record(session.id).session).toMatchObject({ status: 'expired', url: null });
  });

  it('defaults expires_at to 24 hours, and forgets the timer once paid', () => {
    const session = store.createSession(sessionForm());
    expect(session.expires_at - session.created).toBe(24 * 3600);
    expect(vi.getTimerCount()).toBe(1);
    store.completeSession(session.id, { email: 'ada@example.com', name: null });
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(25 * 3600 * 1000);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed']);
  });

  it('close() stops every expiry timer', () => {
    store.createSession(sessionForm());
    store.createSession(sessionForm());
    store.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('splits a coupon over the lines, and a single-use coupon works once', () => {
    const coupon = store.createCoupon(
      new Params(parseForm('amount_off=1000&currency=eur&max_redemptions=1')),
    );
    const session = store.createSession(sessionForm({ 'discounts[0][coupon]': coupon.id }));
    expect(session.amount_total).toBe(43000);
    const lines = store.record(session.id).lineItems;
    expect(lines.map((l) => l.amount_discount)).toEqual([795, 205]);
    expect(lines.reduce((sum, l) => sum + l.amount_total, 0)).toBe(43000);
    store.completeSession(session.id, { email: 'ada@example.com', name: null });
    expect(() => store.createSession(sessionForm({ 'discounts[0][coupon]': coupon.id }))).toThrow(
      StripeApiError,
    );
  });

  it('completes a fully discounted session without a payment intent', () => {
    const coupon = store.createCoupon(new Params(parseForm('percent_off=100')));
    const session = store.createSession(sessionForm({ 'discounts[0][coupon]': coupon.id }));
    expect(session.amount_total).toBe(0);
    const done = store.completeSession(session.id, { email: 'ada@example.com', name: null });
    expect(done).toMatchObject({ payment_status: 'no_payment_required', payment_intent: null });
  });

  it('adds an inline fixed shipping rate to the total', () => {
    const session = store.createSession(
      sessionForm({
        'shipping_options[0][shipping_rate_data][display_name]': 'Colissimo',
        'shipping_options[0][shipping_rate_data][type]': 'fixed_amount',
        'shipping_options[0][shipping_rate_data][fixed_amount][amount]': '1500',
        'shipping_options[0][shipping_rate_data][fixed_amount][currency]': 'eur',
      }),
    );
    expect(session.amount_total).toBe(44000 + 1500);
    expect(session.total_details.amount_shipping).toBe(1500);
    expect(session.shipping_cost?.amount_total).toBe(1500);
  });
});
