/**
 * The plan widget's double opt-in (issue 23): a public form must not be a way to create
 * customers, subscriptions and payments for addresses nobody confirmed, nor to learn which
 * addresses are staff or customers.
 *
 * - `requestSubscription` (`POST api/subscription/subscribe`) writes one pending request and
 *   e-mails a confirmation link through the outbox (after commit). It never reads who the address
 *   belongs to, so the answer, what is written and the e-mail are the same for a new address, a
 *   customer of this tenant or of another, and a staff account.
 * - `confirmSubscription` (`POST api/subscription/subscribe/confirm`, the link opened) creates or
 *   attaches the customer, creates the NotActive subscription with its payment and a payment link,
 *   in one unit of work of the request's tenant. Opening the link again leads to the same payment
 *   page while that payment link is valid (its token is derived from the confirmation token, so
 *   neither is stored); afterwards it answers that the link was used.
 */
import { createHmac } from 'node:crypto';
import { and, count, desc, eq, gt, lt, min, ne, sql } from 'drizzle-orm';
import { Role } from '../../../contract/enums';
import { fromCents } from '../../../contract/money';
import { usableCoupon } from '../../db/coupons';
import { listPriceOf } from '../../db/fiscal-profiles';
import {
  paymentUrlOf,
  PaymentTokenStatus,
  WIDGET_CONFIRM_TTL_MS,
  WIDGET_COUPON_NOT_APPLIED,
  widgetConfirmUrlOf,
  type SubscribeConfirmAnswer,
  type SubscribeConfirmRefusal,
} from '../../../contract/schemas/payment';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { addMember, controlOf } from '../../db/members';
import type { PublicHome } from '../../db/tenancy/public-home';
import { tokenOfTenant, tenantOfToken } from '../../db/tenancy/public-home';
import {
  paymentTokens,
  plans,
  subscriptions,
  tenants,
  users,
  userTenants,
  widgetRequests,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { randomToken, sha256 } from '../../lib/secrets';
import { widgetConfirmMail } from '../../mail/widget-templates';
import type { UnitOfWork, UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { firstPayment } from './billing.repository';
import { createSubscription, formatEur } from './subscription.service';
import { activePlan } from './widget-and-plans.service';
import { createPaymentLink, hashToken, paymentRouteOf } from './payment-token.service';

export const widgetRequestMessages = {
  sent: 'Ti abbiamo inviato un’email: apri il link che contiene per confermare l’abbonamento.',
  capReached:
    'Oggi questo piano ha ricevuto troppe richieste di abbonamento: riprova più tardi o contatta il venditore.',
  notPayable: 'Questo piano non si può ancora acquistare online: contatta il venditore.',
  confirmed: 'Abbonamento confermato: completa il pagamento.',
  replayed: 'Abbonamento già confermato: completa il pagamento.',
  invalid:
    'Link di conferma non valido o sostituito da uno più recente: apri il link dell’ultima email ricevuta.',
  expired: 'Il link di conferma è scaduto: richiedi di nuovo l’abbonamento dal sito del venditore.',
  used: 'Questo link di conferma è già stato usato. Se non hai completato il pagamento, richiedi di nuovo l’abbonamento dal sito del venditore.',
  notAllowed: 'Questa email non può essere usata per abbonarsi da qui: scrivi al venditore.',
  unavailable: 'Questo piano non si può acquistare online in questo momento: contatta il venditore.',
} as const satisfies Record<string, string>;

/** A second request for the same open one sends again after this long, at most MAX_SENDS e-mails in all. */
export const WIDGET_RESEND_AFTER_MS = 60 * 1000;
export const WIDGET_MAX_SENDS = 3;
/** The daily cap's window. */
export const WIDGET_CAP_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Unconfirmed requests (and the addresses in them) are deleted this long after they were made. */
export const WIDGET_PURGE_AFTER_MS = 48 * 60 * 60 * 1000;

const actor = { kind: 'system', job: 'plan-widget' } as const;

export interface WidgetRequestDeps {
  uow: UnitOfWorkRunner;
  /** Where the plan a request names, and the request a link names, are (db/tenancy/public-home.ts). */
  home: PublicHome;
  publicUrl: () => string;
  /** WIDGET_DAILY_CAP: requests per tenant and plan in 24 hours. */
  dailyCap: number;
  /**
   * Issue 30: applies a request's coupon to the payment link its confirmation made, as the payment
   * page's 'Hai un codice sconto?' does (`applyPaymentCoupon`: PayPal's own plan, Stripe).
   */
  applyCoupon?: (
    paymentToken: string,
    couponCode: string,
    preview?: boolean,
  ) => Promise<{ amount: number; applied: boolean }>;
}

function refusal(status: 400 | 409, reason: SubscribeConfirmRefusal): HttpError {
  return new HttpError(status, widgetRequestMessages[reason], { data: { reason } });
}

/**
 * The payment link's token of a confirmation token: whoever holds the e-mailed link can find its
 * payment page again, and the server keeps neither token (only their SHA-256).
 */
export function paymentTokenOf(confirmToken: string): string {
  const link = createHmac('sha256', confirmToken)
    .update('rinnova/widget/payment-link/v1')
    .digest('base64url');
  const tenantId = tenantOfToken(confirmToken);
  return tenantId === null ? link : tokenOfTenant(tenantId, link);
}

/** The plan row locked for this unit (requests of one plan queue here: the cap cannot be overrun). */
async function lockedPlan(w: UnitOfWork, planId: number) {
  const [plan] = await w.tx
    .select({
      id: plans.id,
      name: plans.name,
      isActive: plans.isActive,
      cost: plans.recurringCostBeforeVat,
      vat: plans.vatPercentage,
      natura: plans.natura,
      recurrence: plans.recurrenceType,
      trialDays: plans.trialDays,
    })
    .from(plans)
    .where(and(eq(plans.tenantId, w.tenantId), eq(plans.id, planId)))
    .for('no key update');
  if (!plan) return undefined;
  return { ...plan, amountCents: await listPriceOf(w.tx, w.tenantId, plan) };
}

/**
 * `POST api/subscription/subscribe {planId, email, name?}`: unknown or inactive plan → 404; a plan
 * that cannot be paid online → 409; the tenant's plan over its daily cap → 429 (Retry-After).
 * Otherwise one open request per (plan, e-mail): a new one is written and e-mailed; an open one is
 * e-mailed again with a new link (at most WIDGET_MAX_SENDS times, not within
 * WIDGET_RESEND_AFTER_MS of the last) or left as it is. Never reads the `users` table.
 */
export async function requestSubscription(
  deps: WidgetRequestDeps,
  input: {
    planId: number;
    email: string;
    name?: string | null | undefined;
    couponCode?: string | null | undefined;
  },
): Promise<void> {
  const found = await activePlan(await deps.home.ofPlan(input.planId), input.planId);
  const email = input.email.trim().toLowerCase();
  const name = input.name?.trim() || null;
  const typedCode = input.couponCode?.trim() || null;
  await deps.uow.run({ tenantId: found.tenantId, actor }, async (w) => {
    const plan = await lockedPlan(w, found.id);
    if (!plan || !plan.isActive) throw new HttpError(404, widgetRequestMessages.unavailable);
    await paymentRouteOf(w, plan.id, plan.amountCents).catch((error: unknown) => {
      throw error instanceof HttpError && error.statusCode === 409
        ? new HttpError(409, widgetRequestMessages.notPayable)
        : error;
    });
    // Issue 30: the coupon is checked now with the rules of Create (400 on couponCode); the
    // confirmation applies it to the payment link (its uses are counted then, not here).
    const couponCode = typedCode ? (await usableCoupon(w, typedCode, plan.id)).code : null;
    const now = w.now.getTime();
    const samePlan = and(eq(widgetRequests.tenantId, w.tenantId), eq(widgetRequests.planId, plan.id));
    await w.tx
      .delete(widgetRequests)
      .where(
        and(
          samePlan,
          ne(widgetRequests.status, 'confirmed'),
          lt(widgetRequests.createdAt, new Date(now - WIDGET_PURGE_AFTER_MS)),
        ),
      );
    const [window] = await w.tx
      .select({ made: count(), oldest: min(widgetRequests.createdAt) })
      .from(widgetRequests)
      .where(and(samePlan, gt(widgetRequests.createdAt, new Date(now - WIDGET_CAP_WINDOW_MS))));
    if (window && window.made >= deps.dailyCap) {
      const freeAt = (window.oldest?.getTime() ?? now) + WIDGET_CAP_WINDOW_MS;
      const seconds = Math.max(1, Math.ceil((freeAt - now) / 1000));
      throw new HttpError(429, widgetRequestMessages.capReached, {
        headers: { 'retry-after': String(seconds) },
      });
    }

    const [open] = await w.tx
      .select({
        id: widgetRequests.id,
        sendCount: widgetRequests.sendCount,
        lastSentAt: widgetRequests.lastSentAt,
        expiresAt: widgetRequests.expiresAt,
      })
      .from(widgetRequests)
      .where(and(samePlan, eq(widgetRequests.email, email), eq(widgetRequests.status, 'open')))
      .for('update');
    const token = tokenOfTenant(w.tenantId, randomToken());
    const expiresAt = new Date(now + WIDGET_CONFIRM_TTL_MS);
    if (open && open.expiresAt.getTime() > now) {
      const mayResend =
        open.sendCount < WIDGET_MAX_SENDS && now - open.lastSentAt.getTime() >= WIDGET_RESEND_AFTER_MS;
      if (!mayResend) {
        // Not e-mailed again, but the code typed last is the one the link applies.
        await w.tx
          .update(widgetRequests)
          .set({ couponCode })
          .where(and(eq(widgetRequests.tenantId, w.tenantId), eq(widgetRequests.id, open.id)));
        return;
      }
      // A new link on the same request: the previous e-mail's link stops working.
      await w.tx
        .update(widgetRequests)
        .set({
          tokenHash: sha256(token),
          sendCount: open.sendCount + 1,
          lastSentAt: w.now,
          expiresAt,
          couponCode,
        })
        .where(and(eq(widgetRequests.tenantId, w.tenantId), eq(widgetRequests.id, open.id)));
    } else {
      if (open)
        await w.tx
          .update(widgetRequests)
          .set({ status: 'expired' })
          .where(and(eq(widgetRequests.tenantId, w.tenantId), eq(widgetRequests.id, open.id)));
      await w.tx.insert(widgetRequests).values({
        tenantId: w.tenantId,
        planId: plan.id,
        email,
        name,
        couponCode,
        tokenHash: sha256(token),
        lastSentAt: w.now,
        expiresAt,
        createdAt: w.now,
      });
    }
    const [tenant] = await w.tx
      .select({ name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, w.tenantId));
    await w.outbox.email(
      widgetConfirmMail(email, {
        tenantName: tenant?.name ?? '',
        planName: plan.name,
        amount: formatEur(plan.amountCents),
        recurrenceMonths: plan.recurrence,
        trialDays: plan.trialDays ?? 0,
        link: widgetConfirmUrlOf(deps.publicUrl(), token),
        validMinutes: WIDGET_CONFIRM_TTL_MS / 60_000,
      }),
    );
  });
}

/**
 * The customer of `email` in the unit's tenant, after the owner of the address confirmed: a
 * member already, a User of other tenants attached now (this tenant's own record, with the name
 * typed in the widget), or a new identity (role User, no password). A staff account's address is
 * refused (roles are global: a public form never makes staff a customer).
 */
async function customerOf(w: UnitOfWork, email: string, name: string | null): Promise<number> {
  const control = controlOf(w);
  const [existing] = await control
    .select({ id: users.id, roleId: users.roleId })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (existing) {
    if (existing.roleId !== Role.User) throw refusal(409, 'notAllowed');
    const [member] = await control
      .select({ userId: userTenants.userId })
      .from(userTenants)
      .where(and(eq(userTenants.tenantId, w.tenantId), eq(userTenants.userId, existing.id)));
    if (!member) await addMember(w, existing.id, w.tenantId, { name });
    return existing.id;
  }
  const [created] = await control
    .insert(users)
    .values({
      email,
      name,
      roleId: Role.User,
      defaultTenantId: w.tenantId,
      createdAt: w.now,
      updatedAt: w.now,
    })
    .returning({ id: users.id });
  if (!created) throw new Error('user insert returned no row');
  await addMember(w, created.id, w.tenantId, { name });
  return created.id;
}

/**
 * A NotActive subscription an earlier confirmation of the same address made for the same plan,
 * still unpaid and at today's price: confirming again gives it a new payment link instead of
 * piling up another subscription.
 */
async function unpaidEarlier(
  w: UnitOfWork,
  request: { planId: number; email: string },
  userId: number,
  amountCents: number,
): Promise<{ subscriptionId: number; paymentId: number } | undefined> {
  const [earlier] = await w.tx
    .select({ subscriptionId: subscriptions.id })
    .from(widgetRequests)
    .innerJoin(
      subscriptions,
      and(
        eq(subscriptions.tenantId, widgetRequests.tenantId),
        eq(subscriptions.id, widgetRequests.subscriptionId),
      ),
    )
    .where(
      and(
        eq(widgetRequests.tenantId, w.tenantId),
        eq(widgetRequests.planId, request.planId),
        eq(widgetRequests.email, request.email),
        eq(widgetRequests.status, 'confirmed'),
        eq(subscriptions.userId, userId),
        eq(subscriptions.status, SubscriptionStatus.NotActive),
        eq(subscriptions.amountDueCents, amountCents),
      ),
    )
    .orderBy(desc(widgetRequests.id))
    .limit(1);
  if (!earlier) return undefined;
  const payment = await firstPayment(w, earlier.subscriptionId, { lock: true });
  if (!payment || payment.paidAt !== null) return undefined;
  return { subscriptionId: earlier.subscriptionId, paymentId: payment.id };
}

/**
 * Why the widget's coupon was not applied, in the customer's words: the field error on
 * `couponCode` as Create gives it ('Coupon esaurito', 'Coupon scaduto', …), else the refusal's own
 * Italian message (a provider refusing it), else a plain 'not applied'.
 */
function couponRefusalOf(error: unknown): string {
  if (!(error instanceof HttpError)) return WIDGET_COUPON_NOT_APPLIED;
  const field = error.options.errors?.find((e) => e.startsWith('couponCode: '));
  if (field) return field.slice('couponCode: '.length);
  return error.statusCode === 409 || error.statusCode === 502 ? error.message : WIDGET_COUPON_NOT_APPLIED;
}

/**
 * What the confirmation tells (issue 30): the running trial's end, if any, and what the
 * subscription's first payment asks, read in the unit that made (or found) them.
 */
async function firstDue(
  w: UnitOfWork,
  subscriptionId: number | null,
): Promise<{ trialEndsAt: string | null; amountCents: number }> {
  if (subscriptionId === null) throw new Error('confirmed request without subscription');
  const [sub] = await w.tx
    .select({ trialEndsAt: subscriptions.trialEndsAt, trialState: subscriptions.trialState })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, w.tenantId), eq(subscriptions.id, subscriptionId)));
  const payment = await firstPayment(w, subscriptionId);
  if (!sub || !payment) throw new Error('subscription without payment');
  return {
    trialEndsAt: sub.trialState === 'running' && sub.trialEndsAt ? sub.trialEndsAt.toISOString() : null,
    amountCents: payment.amountDueCents,
  };
}

/**
 * `POST api/subscription/subscribe/confirm {token}`: see the module's comment. Refusals carry
 * `data.reason` (contract `SubscribeConfirmRefusal`) and change nothing.
 */
export async function confirmSubscription(
  deps: Omit<WidgetRequestDeps, 'dailyCap'>,
  token: string,
): Promise<SubscribeConfirmAnswer> {
  const hash = sha256(token);
  // The hash is unique across tenants: it names the request, and so the tenant to act in.
  const [found] = await deps.home
    .ofToken(token)
    .select({ id: widgetRequests.id, tenantId: widgetRequests.tenantId })
    .from(widgetRequests)
    .where(eq(widgetRequests.tokenHash, hash));
  if (!found) throw refusal(400, 'invalid');
  // Over both databases: a new customer's identity and membership go to the control database.
  const made = await deps.uow.run({ tenantId: found.tenantId, actor, database: 'both' }, async (w) => {
    const [request] = await w.tx
      .select()
      .from(widgetRequests)
      .where(
        and(
          eq(widgetRequests.tenantId, w.tenantId),
          eq(widgetRequests.id, found.id),
          eq(widgetRequests.tokenHash, hash),
        ),
      )
      .for('update');
    if (!request) throw refusal(400, 'invalid');
    const paymentToken = paymentTokenOf(token);
    const paymentUrl = paymentUrlOf(deps.publicUrl(), paymentToken);

    if (request.status === 'confirmed') {
      const [link] = await w.tx
        .select({ status: paymentTokens.status, expiresAt: paymentTokens.expiresAt })
        .from(paymentTokens)
        .where(
          and(eq(paymentTokens.tenantId, w.tenantId), eq(paymentTokens.tokenHash, hashToken(paymentToken))),
        );
      if (link && link.status === PaymentTokenStatus.Active && link.expiresAt.getTime() > w.now.getTime())
        return {
          paymentUrl,
          result: 'replayed' as const,
          couponCode: request.couponCode,
          paymentToken,
          ...(await firstDue(w, request.subscriptionId)),
        };
      throw refusal(409, 'used');
    }
    if (request.status !== 'open' || request.expiresAt.getTime() <= w.now.getTime())
      throw refusal(400, 'expired');

    const plan = await lockedPlan(w, request.planId);
    if (!plan || !plan.isActive) throw refusal(409, 'unavailable');
    const userId = await customerOf(w, request.email, request.name);
    const earlier = await unpaidEarlier(w, request, userId, plan.amountCents);
    let subscriptionId: number;
    let paymentId: number;
    if (earlier) {
      ({ subscriptionId, paymentId } = earlier);
    } else {
      subscriptionId = await createSubscription(w, { userId, planId: plan.id });
      const payment = await firstPayment(w, subscriptionId);
      if (!payment) throw new Error('subscription without payment');
      paymentId = payment.id;
    }
    await createPaymentLink(w, paymentId, { token: paymentToken }).catch((error: unknown) => {
      // The plan left PayPal/Stripe since the request: the whole unit rolls back.
      throw error instanceof HttpError && error.statusCode === 409 ? refusal(409, 'unavailable') : error;
    });
    await w.tx
      .update(widgetRequests)
      .set({ status: 'confirmed', confirmedAt: w.now, subscriptionId })
      .where(and(eq(widgetRequests.tenantId, w.tenantId), eq(widgetRequests.id, request.id)));
    return {
      paymentUrl,
      result: 'created' as const,
      couponCode: request.couponCode,
      paymentToken,
      ...(await firstDue(w, subscriptionId)),
    };
  });
  // Issue 30: the widget's coupon, applied to the link just made through the payment page's own
  // path (after the unit: a PayPal plan for the coupon is made outside any transaction). A coupon
  // no longer usable (the last use taken meanwhile, expired) leaves the full price, and the answer
  // says why (`coupon.error`, Create's field error) so the page tells the customer before they
  // pay. Opened again, the link only looks (preview): what is applied, or why it is not.
  let amount = fromCents(made.amountCents);
  let coupon: SubscribeConfirmAnswer['coupon'] = null;
  if (made.couponCode && deps.applyCoupon) {
    const preview = made.result === 'replayed';
    coupon = await deps.applyCoupon(made.paymentToken, made.couponCode, preview).then(
      (quote) => {
        if (!preview) amount = quote.amount;
        return { code: made.couponCode!, error: quote.applied ? null : WIDGET_COUPON_NOT_APPLIED };
      },
      (error: unknown) => ({ code: made.couponCode!, error: couponRefusalOf(error) }),
    );
  }
  return { paymentUrl: made.paymentUrl, result: made.result, trialEndsAt: made.trialEndsAt, amount, coupon };
}
