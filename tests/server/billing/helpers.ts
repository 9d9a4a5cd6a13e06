import { and, asc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { BankTransfer, Subscription } from '../../../contract/schemas/subscription';
import {
  invoices,
  paymentProviders,
  payments,
  plans,
  subscriptionCredits,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../../server/db/schema';
import type { Plan } from '../../../contract/schemas/plan';
import { create } from '../helpers/entity-checks';
import type { ApiClient, TestContext } from '../helpers/test-app';

/** A clock the app reads; tests move it. */
export function movableClock(start = '2026-03-10T09:00:00.000Z') {
  let current = new Date(start);
  return {
    now: () => new Date(current.getTime()),
    set(iso: string) {
      current = new Date(iso);
    },
    advanceDays(days: number) {
      current = new Date(current.getTime() + days * 86_400_000);
    },
  };
}

export const DEMO_IBAN = 'IT60X0542811101000000123456';

/** Gives a tenant the IBAN and holder that bank transfers need. */
export async function giveIban(ctx: TestContext, tenantName: string, iban: string | null = DEMO_IBAN) {
  await ctx.db
    .update(tenants)
    .set({ iban, accountHolder: iban ? `${tenantName} (conto demo)` : null })
    .where(eq(tenants.name, tenantName));
}

export async function planId(ctx: TestContext, tenantName: string, name: string): Promise<number> {
  const tenantId = await ctx.tenantId(tenantName);
  const rows = await ctx.db
    .select({ id: plans.id, tenantId: plans.tenantId })
    .from(plans)
    .where(eq(plans.name, name));
  const row = rows.find((r) => r.tenantId === tenantId);
  if (!row) throw new Error(`no plan ${name} in ${tenantName}`);
  return row.id;
}

export async function userId(ctx: TestContext, email: string): Promise<number> {
  const [row] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

export async function createSubscription(
  api: ApiClient,
  body: Record<string, unknown>,
): Promise<Subscription> {
  const res = await api.post<Subscription>('/api/subscription/Create', body);
  if (res.status !== 200 || !res.body.data) throw new Error(`create failed: ${res.status} ${res.raw}`);
  return res.body.data;
}

/**
 * Points the tenant's seeded PayPal sandbox row at a fake PayPal on loopback, through the API as
 * an Admin would; throws when the update is refused.
 */
export async function pointPayPalAt(
  ctx: TestContext,
  admin: ApiClient,
  tenantName: string,
  fake: { url: string; webhookId: string },
): Promise<void> {
  const tenantId = await ctx.tenantId(tenantName);
  const [row] = await ctx.db
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(eq(paymentProviders.tenantId, tenantId));
  if (!row) throw new Error(`${tenantName}: no payment provider row`);
  const res = await admin.put('/api/paymentprovider/Update', {
    id: row.id,
    name: 'PayPal (finto)',
    apiUrl: fake.url,
    apiKey: 'fake-client-id',
    apiSecret: 'fake-secret',
    webhookId: fake.webhookId,
  });
  if (res.status !== 200) throw new Error(`PayPal row not updated: ${res.status} ${res.raw}`);
}

/**
 * Adds the tenant's Stripe row (Admin's 'Fornitori di pagamento' Create) pointed at a fake Stripe on
 * loopback, with the webhook signing secret when the test delivers Stripe events.
 */
export async function pointStripeAt(
  admin: ApiClient,
  fake: { url: string; webhookSecret?: string },
): Promise<void> {
  const res = await admin.post('/api/paymentprovider/Create', {
    name: 'Stripe (finto)',
    kind: 'stripe',
    mode: 'sandbox',
    apiUrl: fake.url,
    apiKey: 'pk_test_rinnova_public',
    apiSecret: 'sk_test_rinnova_secret',
    ...(fake.webhookSecret === undefined ? {} : { webhookSecret: fake.webhookSecret }),
  });
  if (res.status !== 200) throw new Error(`Stripe row not created: ${res.status} ${res.raw}`);
}

/** A subscription as the Admin's GetById answers it (the test fails on anything but a 200). */
export async function subscriptionOf(admin: ApiClient, id: number): Promise<Subscription> {
  const res = await admin.get<Subscription>(`/api/subscription/GetById/${id}`);
  if (res.status !== 200 || !res.body.data) throw new Error(`GetById ${id}: ${res.status} ${res.raw}`);
  return res.body.data;
}

/** A plan made by the Admin: `cost` before VAT at 22 %, monthly unless told, active unless told. */
export function addPlan(
  admin: ApiClient,
  name: string,
  cost: number,
  recurrenceType = 1,
  isActive = true,
): Promise<Plan> {
  return create<Plan>(admin, 'plan', {
    name,
    recurringCostBeforeVAT: cost,
    vatPercentage: 22,
    recurrenceType,
    isActive,
  });
}

/** Records an approved bank transfer of a payment's whole amount; the caller checks the answer. */
export function approveWholeAmount(
  admin: ApiClient,
  payment: { id: number; amountDue: number },
  approvalDate: string,
) {
  return admin.post<BankTransfer>('/api/BankTransfer/create', {
    paymentId: payment.id,
    amount: payment.amountDue,
    approvalDate,
  });
}

/**
 * Up to `n` customers (role User) of the tenant with no live subscription (Active or
 * ActiveNoRenewal), by id: a scenario's entitlements and e-mails are then its own.
 */
export async function customersWithoutLiveSubscription(
  ctx: TestContext,
  tenantId: number,
  n: number,
): Promise<{ id: number; email: string }[]> {
  const free = await ctx.db
    .select({ id: userTenants.userId, email: users.email })
    .from(userTenants)
    .innerJoin(users, eq(users.id, userTenants.userId))
    .where(
      and(
        eq(userTenants.tenantId, tenantId),
        eq(users.roleId, 3),
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(subscriptions)
            .where(
              and(
                eq(subscriptions.userId, userTenants.userId),
                eq(subscriptions.tenantId, tenantId),
                inArray(subscriptions.status, [1, 3]),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(userTenants.userId))
    .limit(n);
  if (free.length < n)
    throw new Error(`not ${n} customers without a live subscription in tenant ${tenantId}`);
  return free;
}

/** The residual-credit ledger of a subscription (issue 30), oldest row first. */
export function creditLedger(ctx: TestContext, subscriptionId: number) {
  return ctx.db
    .select()
    .from(subscriptionCredits)
    .where(eq(subscriptionCredits.subscriptionId, subscriptionId))
    .orderBy(asc(subscriptionCredits.id));
}

/** A payment's row as the database holds it. */
export async function paymentRowOf(ctx: TestContext, id: number) {
  return (await ctx.db.select().from(payments).where(eq(payments.id, id)))[0]!;
}

/** The invoices (TD01) issued for a payment. */
export function invoicesOfPayment(ctx: TestContext, paymentId: number) {
  return ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.paymentId, paymentId), eq(invoices.documentType, 'TD01')));
}

/** The text of every `<tag>` element of a FatturaPA document, in order. */
export function xmlTags(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]!);
}
