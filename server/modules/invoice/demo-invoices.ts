/**
 * The demo's year of invoices (issue 27): every paid payment of the demo tenants gets its invoice
 * through the real `issueInvoiceForPayment`, in the seed's transaction, in the order the payments
 * were paid and dated on the day each was paid, so each tenant's numbers of a year run 1..n
 * without a gap, in date order. The files are collected as they are built and checked together
 * (fatturaErrorsMany: one validator run) before the seed commits; a refused file, or a payment
 * that could not be invoiced, throws and the whole seed rolls back: never a demo with an invalid
 * file or a 'Pagamenti senza fattura' entry.
 *
 * Then the statuses a year of use leaves: an invoice routed to an SDI code, a PEC or a public
 * administration's office, issued more than two days ago, was delivered (the SdI's RicevutaConsegna,
 * loaded as 'Carica ricevuta SdI' does: status 'delivered', IdentificativoSdI). An invoice to a
 * private person (0000000 without PEC) or abroad (XXXXXXX) gets no delivery receipt from the SdI
 * (it waits in the customer's reserved area; abroad it is only reported): it stays 'issued', as
 * applySdiReceipt leaves it. The demo tenants have no PEC mailbox for sending, so no
 * `invoice_sends` rows: their intermediary sent the files.
 */
import { and, asc, eq, inArray, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { DomainEventName, DomainEvents } from '../../../contract/domain-events';
import type { Transaction } from '../../db/client';
import { invoices, payments, planChanges, subscriptions } from '../../db/schema';
import type { DemoInvoicer } from '../../db/seed/accounts';
import { hasLifecycleTables } from '../../db/seed/demo-lifecycle';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import { fatturaErrorsMany } from './fatturapa';
import {
  creditNoteForPlanChange,
  issueInvoiceForPayment,
  type FileCheck,
  type IssueOutcome,
} from './invoice.service';

/** Invoices issued less than this before the seed stay 'issued' (the receipt not loaded yet). */
const RECENT_MS = 2 * 86_400_000;

interface Published {
  event: DomainEventName;
  payload: DomainEvents[DomainEventName];
}

/**
 * The smallest honest unit of work for one historical payment: the seed's transaction, the
 * payment's tenant, `now` = when it was paid (the invoice's date and year). Events are recorded
 * (nobody consumes 'invoice.issued' in the seed), no e-mail is written for the past.
 */
function historicalUnit(tx: Transaction, tenantId: number, at: Date, published: Published[]): UnitOfWork {
  return {
    tenantId,
    tx,
    now: at,
    actor: { kind: 'system', job: 'demo' },
    outbox: {
      email: () => Promise.reject(new Error('demo seed: the demo’s history sends no e-mail')),
    },
    signal: () => undefined,
    publish: (event, payload) => {
      published.push({ event, payload });
      return Promise.resolve([]);
    },
  };
}

export const issueDemoInvoices: DemoInvoicer = async (tx, { tenantIds, now }) => {
  if (tenantIds.length === 0) return;
  const paid = await tx
    .select({ id: payments.id, tenantId: payments.tenantId, paidAt: payments.paidAt })
    .from(payments)
    .where(and(inArray(payments.tenantId, [...tenantIds]), isNotNull(payments.paidAt)))
    .orderBy(asc(payments.paidAt), asc(payments.id));

  // Plan changes made 'now' in the past (issue 30): the partial credit note (TD04) is issued at the
  // change's moment by the real consumer, between the invoices of the payments paid before and
  // after it, so the numbers still follow the dates.
  const changes = !(await hasLifecycleTables(tx))
    ? []
    : await tx
        .select({
          id: planChanges.id,
          tenantId: planChanges.tenantId,
          subscriptionId: planChanges.subscriptionId,
          at: planChanges.appliedAt,
          planId: planChanges.toPlanId,
          cost: planChanges.costBeforeVatCents,
          vat: planChanges.vatHundredths,
          due: planChanges.amountDueCents,
        })
        .from(planChanges)
        .where(
          and(
            inArray(planChanges.tenantId, [...tenantIds]),
            eq(planChanges.status, 'applied'),
            isNotNull(planChanges.creditedPaymentId),
            isNull(planChanges.creditNoteId),
          ),
        )
        .orderBy(asc(planChanges.appliedAt), asc(planChanges.id));

  const published: Published[] = [];
  const outcomes: [paymentId: number, outcome: IssueOutcome][] = [];
  const refused: { paymentId: number; errors: string[] }[] = [];
  // Every file (TD01 and TD04) is collected as built and checked together at the end: one
  // validator run (fatturaErrorsMany), as issueCheckedTogether does for payments alone.
  const files: { paymentId: number; xml: string }[] = [];
  const collect =
    (paymentId: number): FileCheck =>
    (xml) => {
      files.push({ paymentId, xml });
      return Promise.resolve([]);
    };
  const issue = async (batch: typeof paid) => {
    for (const p of batch)
      outcomes.push([
        p.id,
        await issueInvoiceForPayment(
          historicalUnit(tx, p.tenantId, p.paidAt as Date, published),
          p.id,
          collect(p.id),
        ),
      ]);
  };
  let rest = paid;
  for (const change of changes) {
    const at = change.at as Date;
    await issue(rest.filter((p) => (p.paidAt as Date).getTime() <= at.getTime()));
    rest = rest.filter((p) => (p.paidAt as Date).getTime() > at.getTime());
    // The seed stores the subscription with its terms before the change; the change switches them
    // now, as plan-change.service.ts applyPrepared writes them, then invoicing issues the TD04.
    await tx
      .update(subscriptions)
      .set({
        planId: change.planId,
        costBeforeVatCents: change.cost,
        vatHundredths: change.vat,
        amountDueCents: change.due,
      })
      .where(and(eq(subscriptions.tenantId, change.tenantId), eq(subscriptions.id, change.subscriptionId)));
    const note = await creditNoteForPlanChange(
      historicalUnit(tx, change.tenantId, at, []),
      change.id,
      collect(-change.id),
    );
    if (note.outcome !== 'applied')
      throw new Error(
        `demo seed: plan change ${change.id} got no credit note (${note.detail ?? note.outcome})`,
      );
  }
  await issue(rest);
  const verdicts = await fatturaErrorsMany(files.map((f) => f.xml));
  files.forEach((f, i) => {
    const errors = verdicts[i] ?? [];
    if (errors.length > 0) refused.push({ paymentId: f.paymentId, errors });
  });
  for (const [paymentId, outcome] of outcomes)
    if (outcome.kind !== 'issued')
      throw new Error(
        `demo seed: payment ${paymentId} not invoiced (${outcome.kind === 'blocked' ? outcome.messages.join(' ') : outcome.kind})`,
      );
  if (refused.length > 0)
    throw new Error(
      `demo seed: FatturaPA files refused\n${refused.map((r) => `payment ${r.paymentId}: ${r.errors.join(' ')}`).join('\n')}`,
    );
  if (published.length !== paid.length)
    throw new Error('demo seed: an invoice was not stored once per paid payment');

  await tx
    .update(invoices)
    .set({
      status: 'delivered',
      statusAt: sql`${invoices.createdAt} + interval '1 day'`,
      // A 10-digit IdentificativoSdI of the receipt, one per file.
      sdiId: sql`(4000000000 + ${invoices.id} * 7919)::text`,
    })
    .where(
      and(
        inArray(invoices.tenantId, [...tenantIds]),
        eq(invoices.status, 'issued'),
        lt(invoices.createdAt, new Date(now.getTime() - RECENT_MS)),
        or(notInArray(invoices.recipientCode, ['0000000', 'XXXXXXX']), isNotNull(invoices.recipientPec)),
      ),
    );
};
