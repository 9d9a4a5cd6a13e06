/**
 * Data a test makes in Demo Srl through the API, as its Admin would: a customer, a subscription
 * to a seeded plan paid by bank transfer (recorded, approved, confirmed as far as the test asks).
 * Each test makes its own with a stamp in the name, so files never share rows.
 */
import { expect } from '@playwright/test';
import { accounts, api, apiLogin, DEMO_TENANT, tenantIdByName } from './index';

export type AdminCall = <T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) => ReturnType<typeof api<T>>;

/** The Demo Srl Admin's API calls (signed in once, in the tenant). */
export async function adminCalls(): Promise<AdminCall> {
  const session = await apiLogin(accounts.admin);
  const tenantId = await tenantIdByName(session.token, DEMO_TENANT);
  return (method, url, body) => api(method, url, { token: session.token, tenantId, body });
}

/** A short run-unique stamp for names and e-mail addresses. */
export const stampOf = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** The id of Milano in the seeded geography. */
export async function milanoId(call: AdminCall): Promise<number> {
  const towns = await call<{ options: { value: number; label: string }[] }>(
    'GET',
    '/api/municipality/getAllForSelect?searchTerm=Milano&pageSize=20',
  );
  const milano = towns.body.data?.options.find((m) => m.label.startsWith('Milano'));
  expect(milano, 'Milano in the seeded geography').toBeDefined();
  return milano!.value;
}

/** A customer (role User) of Demo Srl; `fields` as the user Create call takes them. */
export async function createCustomer(call: AdminCall, fields: Record<string, unknown>): Promise<number> {
  const created = await call<{ id: number }>('POST', '/api/user/Create', {
    roleId: 3,
    isActive: true,
    isCompany: false,
    ...fields,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data!.id;
}

/** A seeded plan of Demo Srl by name ('Basic', 'Pro', …). */
export async function planByName(call: AdminCall, name: string): Promise<{ id: number; name: string }> {
  const plans = await call<{ items: { id: number; name: string }[] }>('GET', '/api/plan/getAll?pageSize=100');
  const plan = plans.body.data!.items.find((p) => p.name === name);
  expect(plan, `plan ${name}`).toBeDefined();
  return plan!;
}

export interface TransferSubscription {
  id: number;
  payment: { id: number; amountDue: number; causale: string };
}

/**
 * A subscription of `userId` to `planId` set to bank transfer (BankTransferPending, instructions
 * e-mailed). `until` takes it further: 'recorded' with the transfer approved an hour ago, or
 * 'confirmed' (ActiveNoRenewal, its invoice issued when the customer's data allows). `create`
 * adds fields to the Create call (e.g. a `startDate` in the past: its first payment fell due then).
 */
export async function subscribeByTransfer(
  call: AdminCall,
  userId: number,
  planId: number,
  until: 'pending' | 'recorded' | 'confirmed' = 'pending',
  create: Record<string, unknown> = {},
): Promise<TransferSubscription> {
  const sub = await call<{ id: number; payments: TransferSubscription['payment'][] }>(
    'POST',
    '/api/subscription/Create',
    { ...create, userId, planId },
  );
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  const id = sub.body.data!.id;
  const payment = sub.body.data!.payments[0]!;
  expect((await call('PUT', `/api/subscription/setPaymentWithBankTransfer/${id}`)).status).toBe(200);
  if (until !== 'pending') {
    const transfer = await call('POST', '/api/BankTransfer/create', {
      paymentId: payment.id,
      amount: payment.amountDue,
      approvalDate: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);
  }
  if (until === 'confirmed')
    expect((await call('PUT', `/api/subscription/setActiveNoRenewal/${id}`)).status).toBe(200);
  return { id, payment };
}
