import { and, eq } from 'drizzle-orm';
import type { Subscription } from '../../../contract/schemas/subscription';
import {
  invoiceCounters,
  invoiceIssues,
  invoices,
  invoiceSends,
  userTenants,
} from '../../../server/db/schema';
import { fatturaErrorsMany } from '../../../server/modules/invoice/fatturapa';
import type { ApiClient, TestContext } from '../helpers/test-app';
import { approveWholeAmount, createSubscription } from '../billing/helpers';

/** Sets what a tenant records of a customer (test arrangement; the user API is tested elsewhere). */
export async function setCustomer(
  ctx: TestContext,
  tenantName: string,
  userId: number,
  values: Partial<typeof userTenants.$inferInsert>,
) {
  const tenantId = await ctx.tenantId(tenantName);
  await ctx.db
    .update(userTenants)
    .set(values)
    .where(and(eq(userTenants.userId, userId), eq(userTenants.tenantId, tenantId)));
}

/**
 * Removes the demo's year of invoices (and their counters), for a file that numbers from 1 under a
 * clock of its own: the demo's invoices are dated by the real clock when the template was seeded,
 * so they would sit among (and after) the file's moved-clock dates. Arrangement only: the demo's
 * invoices themselves are checked in demo-billing-seed.test.ts.
 */
export async function withoutDemoInvoices(ctx: TestContext): Promise<void> {
  await ctx.db.delete(invoiceSends);
  await ctx.db.delete(invoiceIssues);
  await ctx.db.delete(invoices);
  await ctx.db.delete(invoiceCounters);
}

/** Create → bank transfer → an approved transfer of the whole amount → setActiveNoRenewal. */
export async function payByBankTransfer(
  admin: ApiClient,
  body: { userId: number; planId: number } & Record<string, unknown>,
  approvalDate: string,
): Promise<{ sub: Subscription; confirm: Awaited<ReturnType<ApiClient['put']>> }> {
  const sub = await createSubscription(admin, body);
  const pending = await admin.put(`/api/subscription/setPaymentWithBankTransfer/${sub.id}`);
  if (pending.status !== 200) throw new Error(`setPaymentWithBankTransfer ${pending.status} ${pending.raw}`);
  const t = await approveWholeAmount(admin, sub.payments[0]!, approvalDate);
  if (t.status !== 200) throw new Error(`transfer ${t.status} ${t.raw}`);
  const confirm = await admin.put(`/api/subscription/setActiveNoRenewal/${sub.id}`);
  return { sub, confirm };
}

/**
 * Every invoice stored in the database passes the official XSD and the SdI's arithmetic (run after
 * a file's tests). One validator run for all of them: the demo's year alone is some 200 files.
 */
export async function everyStoredInvoiceValidates(ctx: TestContext): Promise<number> {
  const rows = await ctx.db.select({ number: invoices.numberText, xml: invoices.xml }).from(invoices);
  const verdicts = await fatturaErrorsMany(rows.map((r) => r.xml));
  const refused = rows.flatMap((r, i) =>
    verdicts[i]!.length > 0 ? [`${r.number}: ${verdicts[i]!.join(' | ')}`] : [],
  );
  if (refused.length > 0) throw new Error(refused.join('\n'));
  return rows.length;
}

/** The text of the first element named `tag` in a FatturaPA file (null when absent). */
export function tagText(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return m ? m[1]! : null;
}
