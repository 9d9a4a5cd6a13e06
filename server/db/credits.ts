/**
 * The ledger of a subscription's credit (issue 30, 'Cambia piano'; `subscription_credits`): what
 * billing writes and invoicing reads. The module's story: server/modules/billing/subscription-credit.ts.
 */
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { fromCents } from '../../contract/money';
import { invoices, payments, planChanges, subscriptionCredits } from './schema';
import type { TenantScope, UnitOfWork } from '../unit-of-work/unit-of-work';

/** The residual credit of a plan change joins the ledger (once per change). */
export async function recordResidualCredit(
  w: UnitOfWork,
  subscriptionId: number,
  planChangeId: number,
  amountCents: number,
): Promise<void> {
  if (amountCents <= 0) return;
  await w.tx
    .insert(subscriptionCredits)
    .values({ tenantId: w.tenantId, subscriptionId, amountCents, planChangeId, createdAt: w.now })
    .onConflictDoNothing();
}

/** The subscription's credit balance (cents, ≥ 0). */
export async function creditBalance(scope: TenantScope, subscriptionId: number): Promise<number> {
  const [row] = await scope.tx
    .select({ sum: sql<string | number | null>`coalesce(sum(${subscriptionCredits.amountCents}), 0)` })
    .from(subscriptionCredits)
    .where(
      and(
        eq(subscriptionCredits.tenantId, scope.tenantId),
        eq(subscriptionCredits.subscriptionId, subscriptionId),
      ),
    );
  return Math.max(0, Number(row?.sum ?? 0));
}

/**
 * A period payment just made (unpaid or being recorded) uses the subscription's credit: its amount
 * asked is reduced by min(balance, amount) and the use recorded, in the caller's unit (which holds
 * the subscription's lock). `charged`: what the provider actually took (a Stripe renewal): only the
 * difference Stripe did not charge is set off, never more than the balance. Answers the cents used.
 * A payment already set off (a replay) is left as it is.
 */
export async function setOffCredit(
  w: UnitOfWork,
  subscriptionId: number,
  paymentId: number,
  options: { charged?: number | null } = {},
): Promise<number> {
  const rows = await w.tx
    .select({ id: subscriptionCredits.id, paymentId: subscriptionCredits.paymentId })
    .from(subscriptionCredits)
    .where(
      and(
        eq(subscriptionCredits.tenantId, w.tenantId),
        eq(subscriptionCredits.subscriptionId, subscriptionId),
      ),
    )
    .for('update');
  if (rows.length === 0 || rows.some((r) => r.paymentId === paymentId)) return 0;
  const balance = await creditBalance(w, subscriptionId);
  if (balance <= 0) return 0;
  const [p] = await w.tx
    .select({ amountDueCents: payments.amountDueCents })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)))
    .for('update');
  if (!p) return 0;
  const wanted =
    options.charged === undefined || options.charged === null
      ? p.amountDueCents
      : Math.max(0, p.amountDueCents - options.charged);
  const used = Math.min(balance, wanted, p.amountDueCents);
  if (used <= 0) return 0;
  await w.tx.insert(subscriptionCredits).values({
    tenantId: w.tenantId,
    subscriptionId,
    amountCents: -used,
    paymentId,
    createdAt: w.now,
  });
  await w.tx
    .update(payments)
    .set({ amountDueCents: p.amountDueCents - used })
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  return used;
}

/**
 * A payment's credit use no larger than `maxCents` (issue 30: a coupon applied after the set-off
 * lowered the payment's net below the credit it used): the use shrinks to `maxCents` (the row goes
 * at 0), in the caller's unit under the subscription's lock; the rest stays on the ledger for the
 * next payment. Answers the cents now used. The payment's amount is the caller's to set.
 */
export async function capCreditUse(
  w: UnitOfWork,
  subscriptionId: number,
  paymentId: number,
  maxCents: number,
): Promise<number> {
  const [row] = await w.tx
    .select({ id: subscriptionCredits.id, amountCents: subscriptionCredits.amountCents })
    .from(subscriptionCredits)
    .where(
      and(
        eq(subscriptionCredits.tenantId, w.tenantId),
        eq(subscriptionCredits.subscriptionId, subscriptionId),
        eq(subscriptionCredits.paymentId, paymentId),
      ),
    )
    .for('update');
  if (!row) return 0;
  const used = -row.amountCents;
  const capped = Math.max(0, Math.min(used, maxCents));
  if (capped === used) return used;
  const where = and(eq(subscriptionCredits.tenantId, w.tenantId), eq(subscriptionCredits.id, row.id));
  if (capped === 0) await w.tx.delete(subscriptionCredits).where(where);
  else await w.tx.update(subscriptionCredits).set({ amountCents: -capped }).where(where);
  return capped;
}

/**
 * The period start of the subscription's first unpaid payment from `from` (before `until`, when
 * given) that sets off a residual credit, or null: the payment a pause or a card renewal turned
 * back on must not leave behind when Stripe's balance already gave its credit back.
 */
export async function unpaidSetOffFrom(
  scope: TenantScope,
  subscriptionId: number,
  from: Date,
  until?: Date,
): Promise<Date | null> {
  const [row] = await scope.tx
    .select({ periodStart: payments.periodStart })
    .from(payments)
    .innerJoin(
      subscriptionCredits,
      and(
        eq(subscriptionCredits.tenantId, payments.tenantId),
        eq(subscriptionCredits.paymentId, payments.id),
      ),
    )
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        isNull(payments.paidAt),
        gte(payments.periodStart, from),
        ...(until ? [lt(payments.periodStart, until)] : []),
      ),
    )
    .orderBy(asc(payments.periodStart))
    .limit(1);
  return row?.periodStart ?? null;
}

/** The credit a payment used (cents, ≥ 0). */
export async function creditUsedBy(scope: TenantScope, paymentId: number): Promise<number> {
  const [row] = await scope.tx
    .select({ amountCents: subscriptionCredits.amountCents })
    .from(subscriptionCredits)
    .where(
      and(eq(subscriptionCredits.tenantId, scope.tenantId), eq(subscriptionCredits.paymentId, paymentId)),
    );
  return row ? -row.amountCents : 0;
}

const euro = (cents: number) => `€ ${fromCents(cents).toFixed(2).replace('.', ',')}`;
const italianDay = (iso: string) => iso.split('-').reverse().join('/');

/** The invoice's Causale line of a set-off (docs/fiscal-rules.md 'Credito residuo'). */
export const setOffCausale = (cents: number, creditNoteNumber: string, creditNoteDate: string) =>
  `Compensato credito residuo di ${euro(cents)} della nota di credito n. ${creditNoteNumber} del ${italianDay(creditNoteDate)}`;

/**
 * The Causale line of a plan change's own credit note set off on its proration payment (the
 * unused days' TD04 against the new days' charge), written only beside a ledger set-off on the
 * same payment, so that the Causale's set-offs add up to what ImportoPagamento leaves out.
 */
export async function changeOffsetCausali(
  scope: TenantScope,
  planChangeId: number,
  offsetCents: number,
): Promise<string[]> {
  const [note] = await scope.tx
    .select({ number: invoices.numberText, date: invoices.issueDate })
    .from(planChanges)
    .innerJoin(
      invoices,
      and(eq(invoices.tenantId, planChanges.tenantId), eq(invoices.id, planChanges.creditNoteId)),
    )
    .where(and(eq(planChanges.tenantId, scope.tenantId), eq(planChanges.id, planChangeId)));
  if (!note || offsetCents <= 0) return [];
  return [
    `Compensato credito di ${euro(offsetCents)} della nota di credito n. ${note.number} del ${italianDay(note.date)}`,
  ];
}

/**
 * The Causale lines of a payment's set-off: the ledger is used first in, first out, so the
 * payment's use is split among the credits (and their credit notes) it consumed.
 */
export async function setOffCausali(scope: TenantScope, subscriptionId: number, paymentId: number) {
  const rows = await scope.tx
    .select({
      amountCents: subscriptionCredits.amountCents,
      paymentId: subscriptionCredits.paymentId,
      planChangeId: subscriptionCredits.planChangeId,
    })
    .from(subscriptionCredits)
    .where(
      and(
        eq(subscriptionCredits.tenantId, scope.tenantId),
        eq(subscriptionCredits.subscriptionId, subscriptionId),
      ),
    )
    .orderBy(asc(subscriptionCredits.id));
  const credits = rows.filter((r) => r.amountCents > 0).map((r) => ({ ...r, left: r.amountCents }));
  const taken: { planChangeId: number; cents: number }[] = [];
  for (const r of rows) {
    if (r.amountCents >= 0) continue;
    let need = -r.amountCents;
    for (const c of credits) {
      if (need === 0) break;
      const part = Math.min(c.left, need);
      if (part === 0) continue;
      c.left -= part;
      need -= part;
      if (r.paymentId === paymentId) taken.push({ planChangeId: c.planChangeId!, cents: part });
    }
    if (r.paymentId === paymentId) break;
  }
  if (taken.length === 0) return [];
  const notes = await scope.tx
    .select({ planChangeId: planChanges.id, number: invoices.numberText, date: invoices.issueDate })
    .from(planChanges)
    .innerJoin(
      invoices,
      and(eq(invoices.tenantId, planChanges.tenantId), eq(invoices.id, planChanges.creditNoteId)),
    )
    .where(
      and(
        eq(planChanges.tenantId, scope.tenantId),
        inArray(
          planChanges.id,
          taken.map((t) => t.planChangeId),
        ),
      ),
    );
  return taken.map((t) => {
    const note = notes.find((n) => n.planChangeId === t.planChangeId);
    return note
      ? setOffCausale(t.cents, note.number, note.date)
      : `Compensato credito residuo di ${euro(t.cents)} del cambio di piano`;
  });
}

/**
 * Whether Rinnova itself sets the credit off on the subscription's next period payment: its
 * periods are paid by bank transfer (the latest paid period payment's method, or none yet). A
 * Stripe subscription's credit is on Stripe's invoice balance (set off when Stripe's renewal is
 * recorded); PayPal cannot lower one charge, so a PayPal subscription's credit is refunded on its
 * last sale instead (subscription-credit.ts `refundAtPayPal`), any rest staying on the ledger.
 */
export async function setsOffInRinnova(scope: TenantScope, subscriptionId: number): Promise<boolean> {
  const method = await periodMethod(scope, subscriptionId);
  return method !== 'stripe' && method !== 'paypal';
}

/** Whether the credit is set off at all: not for a subscription PayPal charges (it stays on the ledger). */
export async function creditSetOffFor(scope: TenantScope, subscriptionId: number): Promise<boolean> {
  return (await periodMethod(scope, subscriptionId)) !== 'paypal';
}

/** How the periods are paid: the latest paid period payment's method (null: none yet, or unknown). */
async function periodMethod(scope: TenantScope, subscriptionId: number): Promise<string | null> {
  return (await periodBilling(scope, subscriptionId))?.method ?? null;
}

/**
 * The latest paid period payment's method and provider subscription (a Stripe subscription's
 * customer holds its credit), or undefined when no period is paid yet.
 */
export async function periodBilling(
  scope: TenantScope,
  subscriptionId: number,
): Promise<{ method: string | null; providerSubscriptionId: string | null } | undefined> {
  const [row] = await scope.tx
    .select({ method: payments.method, providerSubscriptionId: payments.providerSubscriptionId })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, scope.tenantId),
        eq(payments.subscriptionId, subscriptionId),
        isNotNull(payments.paidAt),
        isNull(payments.planChangeId),
        isNull(payments.oneOffChargeId),
      ),
    )
    .orderBy(sql`${payments.periodStart} desc`, sql`${payments.id} desc`)
    .limit(1);
  return row;
}
