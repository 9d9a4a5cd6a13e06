import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankTransfer, Subscription } from '../../../contract/schemas/subscription';
import { createTestContext, DEMO, type ApiClient, type TestContext } from '../helpers/test-app';
import { createSubscription, giveIban, movableClock, planId, userId } from './helpers';

const clock = movableClock('2026-01-31T10:00:00.000Z');
let ctx: TestContext;
let admin: ApiClient;

beforeAll(async () => {
  ctx = await createTestContext({ app: { now: clock.now } });
  admin = await ctx.as('admin', 'Demo Srl');
  await giveIban(ctx, 'Demo Srl');
});
afterAll(() => ctx.close());

describe('a subscription paid by bank transfer', () => {
  it('goes NotActive → BankTransferPending → ActiveNoRenewal with its history', async () => {
    const customer = await userId(ctx, 'mario.rossi@example.com');
    const basic = await planId(ctx, 'Demo Srl', 'Basic');
    const created = await createSubscription(admin, { userId: customer, planId: basic });
    expect(created.subscriptionStatus).toBe(2);
    expect(created.amountDue).toBe(12.08); // 9,90 + 22 % = 12,078 → 12,08
    expect(created.startDate).toBe('2026-01-31T10:00:00.000Z');
    expect(created.nextBillingDate).toBe('2026-02-28T10:00:00.000Z');
    expect(created.allowedActions).toEqual(['paymentLink', 'setBankTransfer']);
    const payment = created.payments[0]!;
    expect(payment.amountDue).toBe(12.08);

    clock.advanceDays(1);
    const pending = await admin.put<Subscription>(
      `/api/subscription/setPaymentWithBankTransfer/${created.id}`,
    );
    expect(pending.status).toBe(200);
    expect(pending.body.data?.subscriptionStatus).toBe(4);
    const mail = (await ctx.outbox()).find((m) => m.to === 'mario.rossi@example.com');
    expect(mail?.text).toContain(payment.causale);
    expect(mail?.text).toContain('IT60X0542811101000000123456');
    expect(mail?.text).toContain('12,08');

    const early = await admin.put(`/api/subscription/setActiveNoRenewal/${created.id}`);
    expect(early.status).toBe(409);

    const transfer = await admin.post<BankTransfer>('/api/BankTransfer/create', {
      paymentId: payment.id,
      amount: 12.08,
      approvalDate: '2026-02-01T09:00:00Z',
    });
    expect(transfer.status).toBe(200);
    const active = await admin.put<Subscription>(`/api/subscription/setActiveNoRenewal/${created.id}`);
    expect(active.status).toBe(200);
    expect(active.body.data?.subscriptionStatus).toBe(3);
    expect(active.body.data?.payments[0]?.paidAt).toBe('2026-02-01T09:00:00.000Z');
    expect(active.body.data?.history?.map((h) => h.event)).toEqual([
      'create',
      'setBankTransfer',
      'confirmBankTransfer',
    ]);
    expect(active.body.data?.history?.[1]?.actor.name).toBe(DEMO.admin);
  });
});
