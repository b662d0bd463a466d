// The withdrawal rules against named fixtures: the period's end in Paris days (weekends, summer
// time), what starts it, and who is refused.
import { describe, expect, it } from 'vitest';
import {
  periodEnd,
  withdrawalDecision,
  withdrawalStatement,
  type WithdrawalOrderFacts,
} from './rules.ts';

const paidOrder = (overrides: Partial<WithdrawalOrderFacts> = {}): WithdrawalOrderFacts => ({
  status: 'confirmed',
  paymentStatus: 'paid',
  paidAt: new Date('2026-09-01T10:00:00Z'),
  shippedAt: null,
  deliveredAt: null,
  createdAt: new Date('2026-09-01T09:58:00Z'),
  ...overrides,
});

describe('periodEnd', () => {
  it.each([
    // Delivered Monday 2 Nov (winter time): 14 days later is Monday 16 Nov, to midnight in Paris.
    ['a weekday', '2026-11-02T09:00:00Z', '2026-11-16T22:59:59.999Z'],
    // 23:30 UTC on the 2nd is already the 3rd in Paris: the Paris day counts.
    ['just after midnight in Paris', '2026-11-02T23:30:00Z', '2026-11-17T22:59:59.999Z'],
    // Saturday 31 Oct → Saturday 14 Nov → Monday 16 Nov.
    ['a last day on Saturday', '2026-10-31T12:00:00Z', '2026-11-16T22:59:59.999Z'],
    // Sunday 1 Nov → Sunday 15 Nov → Monday 16 Nov.
    ['a last day on Sunday', '2026-11-01T12:00:00Z', '2026-11-16T22:59:59.999Z'],
    // Summer time: Friday 3 April 2026 ends at 22:00 UTC.
    ['summer time', '2026-03-20T08:00:00Z', '2026-04-03T21:59:59.999Z'],
    // Across the change to winter time (25 Oct 2026): Friday 6 Nov in winter time.
    ['across the clock change', '2026-10-23T08:00:00Z', '2026-11-06T22:59:59.999Z'],
  ])('%s', (_label, start, end) => {
    expect(periodEnd(new Date(start)).toISOString()).toBe(end);
  });
});

describe('withdrawalDecision', () => {
  const now = new Date('2026-11-23T10:00:00Z');

  it('allows a paid order not delivered yet, however old, with no deadline', () => {
    expect(withdrawalDecision(paidOrder(), now)).toEqual({ kind: 'allowed', deadline: null });
    expect(
      withdrawalDecision(
        paidOrder({ status: 'shipped', shippedAt: new Date('2026-09-02T10:00:00Z') }),
        now,
      ),
    ).toEqual({ kind: 'allowed', deadline: null });
  });

  it('counts a delivered order from the recorded delivery, else the shipment, else the payment', () => {
    const delivered = paidOrder({
      status: 'delivered',
      shippedAt: new Date('2026-09-02T10:00:00Z'),
      deliveredAt: new Date('2026-11-20T10:00:00Z'),
    });
    expect(withdrawalDecision(delivered, now)).toEqual({
      kind: 'allowed',
      deadline: new Date('2026-12-04T22:59:59.999Z'),
    });
    expect(withdrawalDecision({ ...delivered, deliveredAt: null }, now)).toEqual({
      kind: 'period_over',
      deadline: new Date('2026-09-16T21:59:59.999Z'),
    });
    expect(
      withdrawalDecision(
        paidOrder({ status: 'delivered', paidAt: new Date('2026-11-12T10:00:00Z') }),
        now,
      ),
    ).toEqual({ kind: 'allowed', deadline: new Date('2026-11-26T22:59:59.999Z') });
  });

  it('allows the whole last day and refuses the first moment after it', () => {
    const order = paidOrder({ status: 'delivered', shippedAt: new Date('2026-11-02T09:00:00Z') });
    expect(withdrawalDecision(order, new Date('2026-11-16T22:59:59.999Z')).kind).toBe('allowed');
    expect(withdrawalDecision(order, new Date('2026-11-16T23:00:00.000Z')).kind).toBe(
      'period_over',
    );
  });

  it('closes cancelled and refunded orders, and treats the unpaid as no order at all', () => {
    expect(withdrawalDecision(paidOrder({ status: 'cancelled' }), now)).toEqual({ kind: 'closed' });
    expect(withdrawalDecision(paidOrder({ paymentStatus: 'refunded' }), now)).toEqual({
      kind: 'closed',
    });
    for (const paymentStatus of ['unpaid', 'failed', 'expired', 'something-new'])
      expect(withdrawalDecision(paidOrder({ paymentStatus, paidAt: null }), now)).toEqual({
        kind: 'not_an_order',
      });
  });
});

describe('withdrawalStatement', () => {
  const order = {
    orderNumber: 'GS-2026-01042',
    orderedAt: '2026-11-20T23:30:00Z',
    lines: [
      { title: 'Seuil', type: 'original' as const, quantity: 1 },
      { title: 'Aube d’ambre', type: 'print' as const, quantity: 2 },
    ],
    name: '  Ana   Ribeiro ',
    email: 'ana@example.org',
  };

  it('is the model form in French, the goods, the order date in Paris and the consumer', () => {
    expect(withdrawalStatement('fr', order)).toBe(
      [
        'Je notifie par la présente ma rétractation du contrat portant sur la vente des biens ci-dessous\u00a0:',
        '- Seuil (œuvre originale)',
        '- Aube d’ambre (tirage d’art, quantité 2)',
        'Commande n° GS-2026-01042, passée le 21 novembre 2026.',
        'Nom du consommateur\u00a0: Ana Ribeiro',
        'Adresse e-mail\u00a0: ana@example.org',
      ].join('\n'),
    );
  });

  it('and in English', () => {
    expect(withdrawalStatement('en', order).split('\n')).toEqual([
      'I hereby give notice that I withdraw from my contract of sale of the following goods:',
      '- Seuil (original artwork)',
      '- Aube d’ambre (fine-art print, quantity 2)',
      'Order no. GS-2026-01042, placed on 21 November 2026.',
      'Name of consumer: Ana Ribeiro',
      'Email address: ana@example.org',
    ]);
  });
});
