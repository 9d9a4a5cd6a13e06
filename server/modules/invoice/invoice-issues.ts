/**
 * `GET api/invoice/issues`: the paid payments waiting for an invoice, one item per payment (as
 * before) and grouped by customer. What is missing is read from the current data with the very
 * checks the issuance runs (sellerParty, buyerParty): a field completed since the last attempt is
 * no longer named, even before the retry. The other reasons (amount, refused file, the plan's
 * Natura) are the last attempt's.
 */
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { fromCents } from '../../../contract/money';
import {
  customerFieldKeys,
  sellerFieldKeys,
  type InvoiceIssue,
  type InvoiceIssueCustomer,
  type InvoiceIssues,
} from '../../../contract/schemas/invoice';
import { invoiceIssues, payments, userTenants, users } from '../../db/schema';
import type { TenantScope } from '../../unit-of-work/unit-of-work';
import { buyerParty, customersOf, partyMessages, sellerOf, sellerParty } from './invoice.service';

/** Payments listed one by one (`items`), newest first. */
const ITEMS = 200;
/** Waiting payments read to group (a tenant whose own data are missing has every payment waiting). */
const GROUPED = 5000;

const customerRef = z.object({ id: z.number(), name: z.string() });

export const invoiceIssueSchema = z.object({
  id: z.number(),
  paymentId: z.number(),
  customer: customerRef,
  messages: z.array(z.string()),
  at: z.string(),
  amount: z.number(),
  reasons: z.array(z.string()),
}) satisfies z.ZodType<InvoiceIssue>;

export const invoiceIssuesSchema = z.object({
  items: z.array(invoiceIssueSchema),
  totalCount: z.number(),
  customers: z.array(
    z.object({
      customer: customerRef,
      paymentIds: z.array(z.number()),
      count: z.number(),
      total: z.number(),
      missing: z.array(z.object({ key: z.enum(customerFieldKeys), label: z.string() })),
      reasons: z.array(z.string()),
    }) satisfies z.ZodType<InvoiceIssueCustomer>,
  ),
  seller: z.object({
    tenantId: z.number(),
    missing: z.array(z.object({ key: z.enum(sellerFieldKeys), label: z.string() })),
  }),
}) satisfies z.ZodType<InvoiceIssues>;

const otherReasons = (messages: readonly string[]) => messages.filter((m) => !partyMessages.has(m));

export async function invoiceIssuesOf(scope: TenantScope): Promise<InvoiceIssues> {
  const rows = await scope.tx
    .select({
      id: invoiceIssues.id,
      paymentId: invoiceIssues.paymentId,
      userId: invoiceIssues.userId,
      name: userTenants.name,
      email: users.email,
      messages: invoiceIssues.messages,
      at: invoiceIssues.at,
      amountCents: payments.amountDueCents,
      paidAt: payments.paidAt,
    })
    .from(invoiceIssues)
    .innerJoin(
      userTenants,
      and(eq(userTenants.userId, invoiceIssues.userId), eq(userTenants.tenantId, invoiceIssues.tenantId)),
    )
    .innerJoin(users, eq(users.id, invoiceIssues.userId))
    .innerJoin(
      payments,
      and(eq(payments.id, invoiceIssues.paymentId), eq(payments.tenantId, invoiceIssues.tenantId)),
    )
    .where(eq(invoiceIssues.tenantId, scope.tenantId))
    .orderBy(desc(invoiceIssues.id))
    .limit(GROUPED);

  const nameOf = (r: (typeof rows)[number]) => r.name ?? r.email;
  const items: InvoiceIssue[] = rows.slice(0, ITEMS).map((r) => ({
    id: r.id,
    paymentId: r.paymentId,
    customer: { id: r.userId, name: nameOf(r) },
    messages: r.messages,
    at: r.at.toISOString(),
    amount: fromCents(r.amountCents),
    reasons: otherReasons(r.messages),
  }));

  // One group per customer, in the order of their most recent issue.
  const groups = new Map<number, (typeof rows)[number][]>();
  for (const r of rows) groups.set(r.userId, [...(groups.get(r.userId) ?? []), r]);
  const current = new Map((await customersOf(scope, [...groups.keys()])).map((c) => [c.userId, c]));
  const customers: InvoiceIssueCustomer[] = [...groups].map(([userId, waiting]) => {
    const oldestFirst = [...waiting].sort(
      (a, b) => (a.paidAt?.getTime() ?? 0) - (b.paidAt?.getTime() ?? 0) || a.paymentId - b.paymentId,
    );
    const customer = current.get(userId);
    return {
      customer: { id: userId, name: nameOf(waiting[0]!) },
      paymentIds: oldestFirst.map((r) => r.paymentId),
      count: waiting.length,
      total: fromCents(waiting.reduce((sum, r) => sum + r.amountCents, 0)),
      missing: customer ? buyerParty(customer).fields : [],
      reasons: [...new Set(oldestFirst.flatMap((r) => otherReasons(r.messages)))],
    };
  });

  return {
    items,
    totalCount: rows.length,
    customers,
    seller: { tenantId: scope.tenantId, missing: sellerParty(await sellerOf(scope)).fields },
  };
}
