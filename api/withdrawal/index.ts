// The withdrawal function (EU Directive 2023/2673; issue 13 point 9; docs/decisions/020): a buyer,
// with or without an account, names an order by its number and the email it was placed with,
// sees what would be withdrawn, then withdraws. The withdrawal is recorded first — with the
// order's 'Rétractation demandée' mark and an audit entry, in one transaction, once — and mailed
// after: a mail that fails never loses it. Whatever does not match answers like an unknown order.
import { sql } from 'kysely';
import type { Database, Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/index.ts';
import { galleryWithdrawalNotification, withdrawalConfirmationMail } from '../mail/withdrawal.ts';
import { hit, rateLimitKey, type RateLimitRule } from '../ratelimit/index.ts';
import { ipBucket } from '../contact/index.ts';
import { liveSettings, type SiteSettings } from '../settings/index.ts';
import { type Clock, timeOf } from '../clock.ts';
import type {
  WithdrawalAnswer,
  WithdrawalConfirmation,
  WithdrawalInput,
  WithdrawalLine,
  WithdrawalPreview,
} from '../../src/schemas/withdrawal.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';
import { withdrawalDecision, withdrawalStatement } from './rules.ts';

export interface WithdrawalDeps {
  db: Database;
  mailer: Mailer;
  /** Read from the database when not given. */
  settings?: SiteSettings;
  now?: Clock;
}

/**
 * Both steps count: 30 an hour per client network is far more than a buyer needs and far too
 * few to guess which address placed an order.
 */
export const WITHDRAWAL_RATE_LIMIT: RateLimitRule = { limit: 30, windowSeconds: 3600 };

/** The one answer for an unknown order, a wrong email and an order that was never paid. */
export const NO_MATCHING_ORDER = 'No paid order matches this order number and email address.';

interface OrderRow {
  id: string;
  order_number: string;
  customer_name: string;
  customer_email: string;
  status: string;
  payment_status: string;
  paid_at: Date | string | null;
  shipped_at: Date | string | null;
  created_at: Date | string;
}

interface WithdrawalRow {
  requested_at: Date | string;
  statement: string;
}

/**
 * When the owner last marked the order delivered ('Livrée', audited by api/admin/orders.ts as
 * action 'order.status' with `after.status`): the shop's knowledge of the delivery, or null.
 */
export async function deliveryRecordedAt(db: Executor, orderId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('audit_log')
    .select('at')
    .where('entity', '=', 'order')
    .where('entity_id', '=', orderId)
    .where('action', '=', 'order.status')
    .where(sql<string>`after->>'status'`, '=', Fulfilment.delivered)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.at) : null;
}

/** A sale, even if refunded since (the refund may follow this very withdrawal). */
const PAID = new Set<string>([Payment.paid, Payment.refunded]);

const date = (value: Date | string | null): Date | null =>
  value === null ? null : new Date(value);

/** The order placed with this number and email (both compared without case), or undefined. */
async function findOrder(
  db: Executor,
  input: Pick<WithdrawalInput, 'orderNumber' | 'email'>,
  lock = false,
): Promise<OrderRow | undefined> {
  // One query whatever fails, number or email: both answers take the same path and time.
  let query = db
    .selectFrom('orders')
    .select([
      'id',
      'order_number',
      'customer_name',
      'customer_email',
      'status',
      'payment_status',
      'paid_at',
      'shipped_at',
      'created_at',
    ])
    .where((eb) => eb(eb.fn('upper', ['order_number']), '=', input.orderNumber.toUpperCase()))
    .where((eb) => eb(eb.fn('lower', ['customer_email']), '=', input.email.trim().toLowerCase()));
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

async function findWithdrawal(db: Executor, orderId: string): Promise<WithdrawalRow | undefined> {
  return db
    .selectFrom('withdrawals')
    .select(['requested_at', 'statement'])
    .where('order_id', '=', orderId)
    .executeTakeFirst();
}

async function orderLines(db: Executor, orderId: string): Promise<WithdrawalLine[]> {
  const rows = await db
    .selectFrom('order_items')
    .select(['title', 'artwork_type', 'quantity'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    title: row.title,
    type: row.artwork_type === 'original' ? 'original' : 'print',
    quantity: row.quantity,
  }));
}

async function enforceRateLimit(db: Database, ip: string, now: Date): Promise<void> {
  const bucket = ipBucket(ip);
  if (!bucket) return;
  const result = await hit(db, rateLimitKey('withdrawal:ip', bucket), WITHDRAWAL_RATE_LIMIT, now);
  if (!result.allowed)
    throw new AppError('rate_limited', { retryAfterSeconds: result.retryAfterSeconds });
}

const orderedAt = (order: OrderRow) =>
  (date(order.paid_at) ?? new Date(order.created_at)).toISOString();

/**
 * The refusal for an order that matched but cannot be withdrawn from; only ever thrown once
 * number and email matched, so it tells nothing about anyone else's order.
 */
async function refuse(
  db: Executor,
  order: OrderRow,
  now: Date,
): Promise<{ deadline: Date | null }> {
  const decision = withdrawalDecision(
    {
      status: order.status,
      paymentStatus: order.payment_status,
      paidAt: date(order.paid_at),
      shippedAt: date(order.shipped_at),
      deliveredAt:
        order.status === Fulfilment.delivered ? await deliveryRecordedAt(db, order.id) : null,
      createdAt: new Date(order.created_at),
    },
    now,
  );
  if (decision.kind === 'not_an_order')
    throw new AppError('not_found', { message: NO_MATCHING_ORDER });
  if (decision.kind === 'closed') throw new AppError('withdrawal_closed');
  if (decision.kind === 'period_over')
    throw new AppError('withdrawal_period_over', {
      params: { deadline: decision.deadline.toISOString() },
    });
  return { deadline: decision.deadline };
}

/**
 * A paid order matched by number and email, or the one neutral refusal — before any other query,
 * so an unpaid checkout takes the same path as a wrong email.
 */
function matched(order: OrderRow | undefined): OrderRow {
  if (!order || !PAID.has(order.payment_status))
    throw new AppError('not_found', { message: NO_MATCHING_ORDER });
  return order;
}

/** Step 1 → 2: what confirming would withdraw (or the withdrawal already made). Writes nothing. */
export async function previewWithdrawal(
  deps: WithdrawalDeps,
  input: WithdrawalInput,
  meta: { ip: string },
): Promise<WithdrawalPreview> {
  const { db } = deps;
  const now = timeOf(deps);
  await enforceRateLimit(db, meta.ip, now);
  const order = matched(await findOrder(db, input));
  const lines = await orderLines(db, order.id);
  const earlier = await findWithdrawal(db, order.id);
  const base = { orderNumber: order.order_number, orderedAt: orderedAt(order), lines };
  if (earlier)
    return {
      ...base,
      statement: earlier.statement,
      deadline: null,
      requestedAt: new Date(earlier.requested_at).toISOString(),
    };
  const { deadline } = await refuse(db, order, now);
  return {
    ...base,
    statement: statementFor(input.locale, order, base.orderedAt, lines),
    deadline: deadline?.toISOString() ?? null,
    requestedAt: null,
  };
}

function statementFor(
  locale: 'fr' | 'en',
  order: OrderRow,
  ordered: string,
  lines: readonly WithdrawalLine[],
): string {
  return withdrawalStatement(locale, {
    orderNumber: order.order_number,
    orderedAt: ordered,
    lines,
    name: order.customer_name,
    email: order.customer_email,
  });
}

/**
 * Step 2: records the withdrawal, marks the order and audits it in one transaction, then mails
 * the buyer and the gallery. A second confirmation answers the first one again, mailing nothing.
 */
export async function confirmWithdrawal(
  deps: WithdrawalDeps,
  input: WithdrawalInput,
  meta: { ip: string },
): Promise<WithdrawalConfirmation> {
  const { db } = deps;
  const now = timeOf(deps);
  await enforceRateLimit(db, meta.ip, now);

  const recorded = await db.transaction().execute(async (trx) => {
    // Locked: two confirmations at once record one withdrawal and send one mail.
    const order = matched(await findOrder(trx, input, true));
    const lines = await orderLines(trx, order.id);
    const ordered = orderedAt(order);
    const earlier = await findWithdrawal(trx, order.id);
    if (earlier) return { order, lines, ordered, row: earlier, created: false };
    await refuse(trx, order, now);
    const statement = statementFor(input.locale, order, ordered, lines);
    const row = await trx
      .insertInto('withdrawals')
      .values({ order_id: order.id, requested_at: now, locale: input.locale, statement })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .returning(['requested_at', 'statement'])
      .executeTakeFirst();
    if (!row) {
      const existing = await findWithdrawal(trx, order.id);
      if (!existing) throw new Error(`Withdrawal of order ${order.id} vanished`);
      return { order, lines, ordered, row: existing, created: false };
    }
    await trx
      .updateTable('orders')
      .set({ withdrawal_requested_at: now, updated_at: now })
      .where('id', '=', order.id)
      .execute();
    // The buyer acts, not an administrator: no actor (api/admin/audit.ts needs one).
    await trx
      .insertInto('audit_log')
      .values({
        actor_id: null,
        actor_email: null,
        action: 'order.withdrawal',
        entity: 'order',
        entity_id: order.id,
        before: JSON.stringify({ withdrawalRequestedAt: null }),
        after: JSON.stringify({
          withdrawalRequestedAt: now.toISOString(),
          locale: input.locale,
          by: 'buyer',
        }),
        at: now,
      })
      .execute();
    return { order, lines, ordered, row, created: true };
  });

  const confirmation: WithdrawalConfirmation = {
    orderNumber: recorded.order.order_number,
    orderedAt: recorded.ordered,
    lines: recorded.lines,
    statement: recorded.row.statement,
    requestedAt: new Date(recorded.row.requested_at).toISOString(),
    created: recorded.created,
    mailed: false,
  };
  if (!recorded.created) return confirmation;
  confirmation.mailed = await sendMails(deps, recorded.order, confirmation, input.locale);
  return confirmation;
}

/** Mails the buyer, then the gallery; a failure is logged, never thrown. True if the buyer's left. */
async function sendMails(
  deps: WithdrawalDeps,
  order: OrderRow,
  confirmation: WithdrawalConfirmation,
  locale: 'fr' | 'en',
): Promise<boolean> {
  let settings: SiteSettings;
  try {
    settings = deps.settings ?? (await liveSettings(deps.db));
  } catch (error) {
    log.error(
      { err: error },
      `Withdrawal of order ${order.order_number} recorded; its mails could not be prepared`,
    );
    return false;
  }
  const mail = {
    ...confirmation,
    name: order.customer_name,
    email: order.customer_email,
    locale,
  };
  let mailed = false;
  try {
    await deps.mailer.send(withdrawalConfirmationMail(mail, settings));
    mailed = true;
  } catch (error) {
    log.error(
      { err: error },
      `Withdrawal of order ${order.order_number} recorded; the buyer's confirmation mail failed`,
    );
  }
  try {
    await deps.mailer.send(galleryWithdrawalNotification(mail, settings, mailed));
  } catch (error) {
    log.error(
      { err: error },
      `Withdrawal of order ${order.order_number} recorded; the gallery's notification failed`,
    );
  }
  return mailed;
}

/** The endpoint's and the page's one entry: the step the input asks for. */
export async function handleWithdrawal(
  deps: WithdrawalDeps,
  input: WithdrawalInput,
  meta: { ip: string },
): Promise<WithdrawalAnswer> {
  if (input.step === 'check')
    return { step: 'check', preview: await previewWithdrawal(deps, input, meta) };
  return { step: 'confirm', confirmation: await confirmWithdrawal(deps, input, meta) };
}
