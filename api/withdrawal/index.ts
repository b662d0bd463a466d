// The withdrawal function (EU Directive 2023/2673; issue 13 point 9; docs/decisions/020 and 039):
// a buyer, with or without an account, names an order by its number and the email it was placed
// with, reviews the statement, then sends it.
// - Signed in, naming one of their own orders: they see its works and the period, and withdraw at
//   once — recorded with the order's 'Rétractation demandée' mark and an audit entry, in one
//   transaction, once — then mailed; a mail that fails never loses it.
// - Anyone else (issue 24, break 1: order numbers run in sequence, and an email is no secret):
//   the answer is the same whatever matched, and nothing about the order is shown. If number and
//   email match an order that can be withdrawn from, the statement is recorded, pending, with its
//   date — the legal date — and the order's mailbox gets an acknowledgement with a link to confirm
//   it and one to say "this was not me". Only a confirmation marks the order.
import { sql } from 'kysely';
import type { Database, Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/index.ts';
import {
  galleryWithdrawalNotification,
  withdrawalAcknowledgementMail,
  withdrawalConfirmationMail,
  withdrawalRefusedMail,
} from '../mail/withdrawal.ts';
import { afterAnswer } from '../background.ts';
import { owner, ownedBy } from '../accounts/orders.ts';
import type { SessionUser } from '../accounts/sessions.ts';
import { hashToken, isTokenShaped, randomToken } from '../accounts/tokens.ts';
import { hit, rateLimitKey, type RateLimitRule } from '../ratelimit/index.ts';
import { ipBucket } from '../contact/index.ts';
import { liveSettings, type SiteSettings } from '../settings/index.ts';
import { type Clock, timeOf } from '../clock.ts';
import type {
  WithdrawalAnswer,
  WithdrawalByLink,
  WithdrawalConfirmation,
  WithdrawalInput,
  WithdrawalLine,
  WithdrawalLinkAction,
  WithdrawalPreview,
  WithdrawalReceipt,
} from '../../src/schemas/withdrawal.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';
import { draftStatement, withdrawalDecision, withdrawalStatement } from './rules.ts';
import { orderReturned } from '../orders/returns.ts';

export interface WithdrawalDeps {
  db: Database;
  mailer: Mailer;
  /** The public site's URL: the mailed links start with it. */
  siteUrl: string;
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

/** The mailed link confirms (or disowns) a statement for this long. */
export const WITHDRAWAL_LINK_DAYS = 30;

/**
 * A statement sent again for an order whose statement still awaits its confirmation mails the
 * acknowledgement again (a new link) at most this often: a stranger cannot flood the mailbox.
 */
export const WITHDRAWAL_REMAIL_SECONDS = 3600;

/** Who sends the form: the client's address, and the signed-in user if any. */
export interface WithdrawalMeta {
  ip: string;
  user?: Pick<SessionUser, 'id'> | null;
}

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
  id: string;
  state: string;
  requested_at: Date | string;
  statement: string;
  locale: string;
  mailed_at: Date | string | null;
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

const ORDER_COLUMNS = [
  'id',
  'order_number',
  'customer_name',
  'customer_email',
  'status',
  'payment_status',
  'paid_at',
  'shipped_at',
  'created_at',
] as const;

/**
 * The order with this number if it is the signed-in user's, by the account page's rule (placed
 * while signed in, or with the account's verified address), or undefined.
 */
async function findOwnOrder(
  db: Executor,
  orderNumber: string,
  user: Pick<SessionUser, 'id'>,
  lock = false,
): Promise<OrderRow | undefined> {
  const me = await owner(db, user.id);
  if (!me) return undefined;
  let query = db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where((eb) => eb(eb.fn('upper', ['order_number']), '=', orderNumber.toUpperCase()))
    .where(ownedBy(me));
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The order placed with this number and email (both compared without case), or undefined. */
async function findOrder(
  db: Executor,
  input: Pick<WithdrawalInput, 'orderNumber' | 'email'>,
  lock = false,
): Promise<OrderRow | undefined> {
  // One query whatever fails, number or email: both answers take the same path and time.
  let query = db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where((eb) => eb(eb.fn('upper', ['order_number']), '=', input.orderNumber.toUpperCase()))
    .where((eb) => eb(eb.fn('lower', ['customer_email']), '=', input.email.trim().toLowerCase()));
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The order's statement that was not disowned (there is at most one), or undefined. */
async function findWithdrawal(db: Executor, orderId: string): Promise<WithdrawalRow | undefined> {
  return db
    .selectFrom('withdrawals')
    .select(['id', 'state', 'requested_at', 'statement', 'locale', 'mailed_at'])
    .where('order_id', '=', orderId)
    .where('state', '!=', 'disowned')
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

async function enforceRateLimit(db: Executor, ip: string, now: Date): Promise<void> {
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

/** A paid order, or the one neutral refusal: an unpaid checkout is no order to withdraw from. */
function matched(order: OrderRow | undefined): OrderRow {
  if (!order || !PAID.has(order.payment_status))
    throw new AppError('not_found', { message: NO_MATCHING_ORDER });
  return order;
}

/**
 * Step 1 → 2 for the signed-in buyer of the order: what confirming would withdraw (or the
 * withdrawal already made). Writes nothing.
 */
async function previewOwnWithdrawal(
  db: Executor,
  order: OrderRow,
  locale: 'fr' | 'en',
  now: Date,
): Promise<WithdrawalPreview> {
  const lines = await orderLines(db, order.id);
  const earlier = await findWithdrawal(db, order.id);
  const base = { orderNumber: order.order_number, orderedAt: orderedAt(order), lines };
  if (earlier?.state === 'confirmed')
    return {
      ...base,
      statement: earlier.statement,
      deadline: null,
      requestedAt: new Date(earlier.requested_at).toISOString(),
    };
  // A statement sent from the form and not yet confirmed by mail: confirming it here keeps its
  // date, so the period is judged at that date, not today.
  if (earlier) return { ...base, statement: earlier.statement, deadline: null, requestedAt: null };
  const { deadline } = await refuse(db, order, now);
  return {
    ...base,
    statement: statementFor(locale, order, base.orderedAt, lines),
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

type ConfirmedVia = 'mail' | 'account';

/**
 * Marks the order withdrawn — 'Rétractation demandée' from the statement's date, the legal one —
 * and audits who confirmed it. Inside the caller's transaction.
 */
async function markWithdrawn(
  trx: Executor,
  order: OrderRow,
  statement: { requestedAt: Date; locale: string },
  via: ConfirmedVia,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ withdrawal_requested_at: statement.requestedAt, updated_at: now })
    .where('id', '=', order.id)
    .execute();
  // The copies come back: their edition numbers go to the owner (docs/decisions/045).
  await orderReturned(trx, order.id, now, 'withdrawal');
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
        withdrawalRequestedAt: statement.requestedAt.toISOString(),
        confirmedAt: now.toISOString(),
        confirmedVia: via,
        locale: statement.locale,
        by: 'buyer',
      }),
      at: now,
    })
    .execute();
}

/** An audit entry of the order's history written for the buyer's statement (no actor). */
async function auditStatement(
  trx: Executor,
  orderId: string,
  action: 'order.withdrawal_statement' | 'order.withdrawal_disowned',
  after: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: null,
      actor_email: null,
      action,
      entity: 'order',
      entity_id: orderId,
      before: null,
      after: JSON.stringify(after),
      at: now,
    })
    .execute();
}

/**
 * Step 2 for the signed-in buyer of the order: records the withdrawal, marks the order and
 * audits it in one transaction, then mails the buyer and the gallery. A statement sent earlier
 * from the form and still pending is confirmed, keeping its date. A second confirmation answers
 * the first one again, mailing nothing.
 */
async function confirmOwnWithdrawal(
  deps: WithdrawalDeps,
  input: WithdrawalInput,
  user: Pick<SessionUser, 'id'>,
  now: Date,
): Promise<WithdrawalConfirmation | undefined> {
  const recorded = await deps.db.transaction().execute(async (trx) => {
    // Locked: two confirmations at once record one withdrawal and send one mail.
    const order = await findOwnOrder(trx, input.orderNumber, user, true);
    if (!order) return undefined;
    matched(order);
    const lines = await orderLines(trx, order.id);
    const ordered = orderedAt(order);
    const earlier = await findWithdrawal(trx, order.id);
    if (earlier?.state === 'confirmed')
      return { order, lines, ordered, row: earlier, created: false };
    if (earlier) {
      await trx
        .updateTable('withdrawals')
        .set({ state: 'confirmed', confirmed_at: now, confirmed_via: 'account', token_hash: null })
        .where('id', '=', earlier.id)
        .execute();
      const requestedAt = new Date(earlier.requested_at);
      await markWithdrawn(trx, order, { requestedAt, locale: earlier.locale }, 'account', now);
      return { order, lines, ordered, row: earlier, created: true };
    }
    await refuse(trx, order, now);
    const statement = statementFor(input.locale, order, ordered, lines);
    const row = await trx
      .insertInto('withdrawals')
      .values({
        order_id: order.id,
        requested_at: now,
        locale: input.locale,
        statement,
        state: 'confirmed',
        confirmed_at: now,
        confirmed_via: 'account',
      })
      .returning(['id', 'state', 'requested_at', 'statement', 'locale', 'mailed_at'])
      .executeTakeFirstOrThrow();
    await markWithdrawn(trx, order, { requestedAt: now, locale: input.locale }, 'account', now);
    return { order, lines, ordered, row, created: true };
  });
  if (!recorded) return undefined;

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
  confirmation.mailed = await sendConfirmedMails(deps, recorded.order, confirmation, input.locale);
  return confirmation;
}

/** `/retractation/confirmation?token=…` in the statement's language, absolute. */
export function withdrawalLinkUrl(
  siteUrl: string,
  locale: 'fr' | 'en',
  token: string,
  action: WithdrawalLinkAction,
): string {
  const path = locale === 'en' ? '/en/withdrawal/confirmation' : '/retractation/confirmation';
  const query = new URLSearchParams({ token, ...(action === 'disown' ? { action } : {}) });
  return `${siteUrl}${path}?${query}`;
}

/** A new link for a statement: its token (to mail) and what is stored of it. */
function newLink(now: Date) {
  const token = randomToken();
  return {
    token,
    token_hash: hashToken(token),
    token_expires_at: new Date(now.getTime() + WITHDRAWAL_LINK_DAYS * 86_400_000),
    mailed_at: now,
  };
}

/**
 * Step 2 for anyone but the order's signed-in buyer (issue 24, break 1). The same answer whatever
 * matched. When number and email match a paid order:
 * - that can be withdrawn from and has no statement yet: the statement is recorded, pending,
 *   dated now, and the order's mailbox gets the acknowledgement with the links;
 * - whose statement is still pending: the acknowledgement is mailed again with a new link, at
 *   most once an hour;
 * - whose period is over, or that is closed: its mailbox is told why, at most once an hour.
 * Mails leave after the answer, so its timing tells nothing either.
 */
async function sendStatement(
  deps: WithdrawalDeps,
  input: WithdrawalInput,
  now: Date,
): Promise<WithdrawalReceipt> {
  const receipt = { orderNumber: input.orderNumber, email: input.email, sentAt: now.toISOString() };
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const order = await findOrder(trx, input, true);
    if (!order || !PAID.has(order.payment_status)) return null;
    const lines = await orderLines(trx, order.id);
    const ordered = orderedAt(order);
    const earlier = await findWithdrawal(trx, order.id);
    if (earlier?.state === 'confirmed') return null;
    if (earlier) {
      const last = earlier.mailed_at ? new Date(earlier.mailed_at).getTime() : 0;
      if (now.getTime() - last < WITHDRAWAL_REMAIL_SECONDS * 1000) return null;
      const { token, ...link } = newLink(now);
      await trx.updateTable('withdrawals').set(link).where('id', '=', earlier.id).execute();
      return {
        kind: 'acknowledge' as const,
        order,
        lines,
        ordered,
        token,
        statement: earlier.statement,
        requestedAt: new Date(earlier.requested_at),
        locale: earlier.locale === 'en' ? ('en' as const) : ('fr' as const),
        expiresAt: link.token_expires_at,
      };
    }
    try {
      await refuse(trx, order, now);
    } catch (error) {
      // Only the order's own refusals are answered by mail; anything else (the database gone) is
      // the request's error, answered as such.
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'not_found') return null;
      const once = await hit(
        trx,
        rateLimitKey('withdrawal:refusal', order.id),
        { limit: 1, windowSeconds: WITHDRAWAL_REMAIL_SECONDS },
        now,
      );
      if (!once.allowed) return null;
      const deadline = error.params?.['deadline'];
      return {
        kind: 'refuse' as const,
        order,
        lines,
        ordered,
        reason:
          error.code === 'withdrawal_period_over' ? ('period_over' as const) : ('closed' as const),
        deadline: typeof deadline === 'string' ? deadline : null,
      };
    }
    const statement = statementFor(input.locale, order, ordered, lines);
    const { token, ...link } = newLink(now);
    const inserted = await trx
      .insertInto('withdrawals')
      .values({
        order_id: order.id,
        requested_at: now,
        locale: input.locale,
        statement,
        state: 'pending',
        ...link,
      })
      .onConflict((oc) => oc.column('order_id').where('state', '!=', 'disowned').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return null;
    await auditStatement(
      trx,
      order.id,
      'order.withdrawal_statement',
      { requestedAt: now.toISOString(), locale: input.locale, by: 'form' },
      now,
    );
    return {
      kind: 'acknowledge' as const,
      order,
      lines,
      ordered,
      token,
      statement,
      requestedAt: now,
      locale: input.locale,
      expiresAt: link.token_expires_at,
    };
  });
  if (!outcome) return receipt;

  const { order } = outcome;
  void afterAnswer(
    (async () => {
      try {
        const settings = deps.settings ?? (await liveSettings(deps.db));
        const base = {
          orderNumber: order.order_number,
          orderedAt: outcome.ordered,
          lines: outcome.lines,
          name: order.customer_name,
          email: order.customer_email,
        };
        if (outcome.kind === 'refuse') {
          await deps.mailer.send(
            withdrawalRefusedMail(
              { ...base, locale: input.locale, reason: outcome.reason, deadline: outcome.deadline },
              settings,
            ),
          );
          return;
        }
        const { locale, token } = outcome;
        await deps.mailer.send(
          withdrawalAcknowledgementMail(
            {
              ...base,
              locale,
              statement: outcome.statement,
              requestedAt: outcome.requestedAt.toISOString(),
              confirmUrl: withdrawalLinkUrl(deps.siteUrl, locale, token, 'confirm'),
              disownUrl: withdrawalLinkUrl(deps.siteUrl, locale, token, 'disown'),
              expiresAt: outcome.expiresAt.toISOString(),
            },
            settings,
          ),
        );
      } catch (error) {
        log.error(
          { err: error },
          `Withdrawal statement for order ${order.order_number}: the buyer's mail failed`,
        );
      }
    })(),
  );
  return receipt;
}

/** Mails the buyer, then the gallery; a failure is logged, never thrown. True if the buyer's left. */
async function sendConfirmedMails(
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

/** The endpoint's and the page's one entry: the step the input asks for, for whoever asks. */
export async function handleWithdrawal(
  deps: WithdrawalDeps,
  input: WithdrawalInput,
  meta: WithdrawalMeta,
): Promise<WithdrawalAnswer> {
  const { db } = deps;
  const now = timeOf(deps);
  await enforceRateLimit(db, meta.ip, now);
  if (meta.user) {
    if (input.step === 'check') {
      const own = await findOwnOrder(db, input.orderNumber, meta.user);
      if (own && PAID.has(own.payment_status))
        return { step: 'check', preview: await previewOwnWithdrawal(db, own, input.locale, now) };
    } else {
      const confirmation = await confirmOwnWithdrawal(deps, input, meta.user, now);
      if (confirmation) return { step: 'confirm', confirmation };
    }
  }
  if (input.step === 'check')
    return {
      step: 'check',
      draft: {
        orderNumber: input.orderNumber,
        email: input.email,
        statement: draftStatement(input.locale, input),
      },
    };
  return { step: 'confirm', receipt: await sendStatement(deps, input, now) };
}

interface LinkedRow extends WithdrawalRow {
  order_id: string;
  confirmed_at: Date | string | null;
  disowned_at: Date | string | null;
  token_expires_at: Date | string | null;
}

/** The statement a mailed link stands for, locked when asked; expired or unknown: invalid_token. */
async function findByToken(db: Executor, token: string, now: Date, lock = false) {
  if (!isTokenShaped(token)) throw new AppError('invalid_token');
  let query = db
    .selectFrom('withdrawals')
    .select([
      'id',
      'order_id',
      'state',
      'requested_at',
      'statement',
      'locale',
      'mailed_at',
      'confirmed_at',
      'disowned_at',
      'token_expires_at',
    ])
    .where('token_hash', '=', hashToken(token));
  if (lock) query = query.forUpdate();
  const row: LinkedRow | undefined = await query.executeTakeFirst();
  if (!row?.token_expires_at || new Date(row.token_expires_at).getTime() <= now.getTime())
    throw new AppError('invalid_token');
  const order = await db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where('id', '=', row.order_id)
    .executeTakeFirstOrThrow();
  return { row, order };
}

function byLink(row: LinkedRow, order: OrderRow, lines: WithdrawalLine[]): WithdrawalByLink {
  const at = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);
  return {
    state: row.state === 'confirmed' || row.state === 'disowned' ? row.state : 'pending',
    orderNumber: order.order_number,
    orderedAt: orderedAt(order),
    lines,
    statement: row.statement,
    requestedAt: new Date(row.requested_at).toISOString(),
    confirmedAt: at(row.confirmed_at),
    disownedAt: at(row.disowned_at),
  };
}

/** What the mailed link shows before the buyer answers. Writes nothing. */
export async function withdrawalByLink(
  deps: Pick<WithdrawalDeps, 'db' | 'now'>,
  token: string,
): Promise<WithdrawalByLink> {
  const { row, order } = await findByToken(deps.db, token, timeOf(deps));
  return byLink(row, order, await orderLines(deps.db, order.id));
}

/**
 * The buyer's answer from the mailed link: 'confirm' makes the pending statement their
 * withdrawal, dated when it was sent, and mails them and the gallery; 'disown' sets it aside
 * ("this was not me"), audited, so the order can take a statement again. A statement already
 * answered stays as it is and is shown as such (a confirmed one cannot be disowned here).
 */
export async function answerWithdrawalLink(
  deps: WithdrawalDeps,
  token: string,
  action: WithdrawalLinkAction,
): Promise<WithdrawalByLink> {
  const now = timeOf(deps);
  const done = await deps.db.transaction().execute(async (trx) => {
    const { row, order } = await findByToken(trx, token, now, true);
    const lines = await orderLines(trx, order.id);
    let changed = false;
    if (row.state === 'pending' && action === 'confirm') {
      await trx
        .updateTable('withdrawals')
        .set({ state: 'confirmed', confirmed_at: now, confirmed_via: 'mail' })
        .where('id', '=', row.id)
        .execute();
      const requestedAt = new Date(row.requested_at);
      await markWithdrawn(trx, order, { requestedAt, locale: row.locale }, 'mail', now);
      Object.assign(row, { state: 'confirmed', confirmed_at: now });
      changed = true;
    } else if (row.state === 'pending' && action === 'disown') {
      await trx
        .updateTable('withdrawals')
        .set({ state: 'disowned', disowned_at: now })
        .where('id', '=', row.id)
        .execute();
      await auditStatement(
        trx,
        order.id,
        'order.withdrawal_disowned',
        { requestedAt: new Date(row.requested_at).toISOString(), disownedAt: now.toISOString() },
        now,
      );
      Object.assign(row, { state: 'disowned', disowned_at: now });
    }
    return { row, order, lines, confirmed: changed };
  });
  const answer = byLink(done.row, done.order, done.lines);
  if (done.confirmed) {
    const locale = done.row.locale === 'en' ? 'en' : 'fr';
    await sendConfirmedMails(
      deps,
      done.order,
      {
        orderNumber: answer.orderNumber,
        orderedAt: answer.orderedAt,
        lines: answer.lines,
        statement: answer.statement,
        requestedAt: answer.requestedAt,
        created: true,
        mailed: false,
      },
      locale,
    );
  }
  return answer;
}
