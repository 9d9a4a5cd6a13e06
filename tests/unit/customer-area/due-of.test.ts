/**
 * The customer home's 'Da pagare ora' (issue 28), and issue 29: a subscription renewing by bank
 * transfer shows its transfer as due once its next billing date has come, while it is in
 * collection; not before, not once paid or exhausted, and never another ActiveNoRenewal's payment.
 */
import { describe, expect, it } from 'vitest';
import { dueOf } from '../../../src/features/customer-area/customer-home-page';
import { payment, subscription } from '../subscription/fixtures';

const paid = payment({ id: 700, method: 'bankTransfer', paidAt: '2026-01-15T10:00:00Z' });
const renewal = payment({
  id: 701,
  method: 'bankTransfer',
  periodStart: '2026-02-15T09:00:00Z',
  periodEnd: '2026-03-15T09:00:00Z',
  dueDate: '2026-02-15',
});
const byTransfer = (p = renewal) => subscription(70, 3, { payments: [paid, p] });

describe('dueOf', () => {
  it('a renewal by bank transfer is due from its next billing date while in collection', () => {
    expect(dueOf(byTransfer(), new Date('2026-02-15T08:59:00Z'))).toBeNull();
    expect(dueOf(byTransfer(), new Date('2026-02-15T09:00:00Z'))?.id).toBe(701);
    expect(dueOf(byTransfer({ ...renewal, collectionStatus: 'overdue' }), new Date('2026-02-20'))?.id).toBe(
      701,
    );
    expect(
      dueOf(byTransfer({ ...renewal, collectionStatus: 'exhausted' }), new Date('2026-03-20')),
    ).toBeNull();
    expect(
      dueOf(byTransfer({ ...renewal, paidAt: '2026-02-16T09:00:00Z' }), new Date('2026-02-20')),
    ).toBeNull();
  });

  it('another ActiveNoRenewal’s unpaid renewal (a link’s, no method) is not due; NotActive and BankTransferPending as before', () => {
    expect(dueOf(byTransfer({ ...renewal, method: null }), new Date('2026-02-20'))).toBeNull();
    expect(dueOf(subscription(71, 2, { payments: [payment({ id: 711 })] }))?.id).toBe(711);
    expect(dueOf(subscription(72, 4, { payments: [payment({ id: 712 })] }))?.id).toBe(712);
    expect(dueOf(subscription(73, 1, { payments: [payment({ id: 713 })] }))).toBeNull();
  });
});

describe('dueOf after a renewal by transfer turned off', () => {
  it('a NotActive subscription’s transfer for the period it never entered is not due; its first payment still is', () => {
    const ended = (p = renewal) =>
      subscription(74, 2, { nextBillingDate: '2026-02-15T09:00:00Z', payments: [paid, p] });
    expect(dueOf(ended(), new Date('2026-02-20'))).toBeNull();
    const first = payment({ id: 741, method: 'bankTransfer' });
    expect(dueOf(subscription(75, 2, { payments: [first] }))?.id).toBe(741);
  });
});

describe('dueOf after a plan change (issue 30)', () => {
  const period = payment({
    id: 760,
    method: 'bankTransfer',
    periodStart: '2026-01-15T09:00:00Z',
    periodEnd: '2026-02-15T09:00:00Z',
    paidAt: '2026-01-15T10:00:00Z',
  });
  const proration = payment({
    id: 761,
    method: 'bankTransfer',
    periodStart: '2026-01-31T09:00:00Z',
    periodEnd: '2026-02-15T09:00:00Z',
    dueDate: '2026-01-31',
  });
  it('the unpaid proration of a live subscription whose period is paid is due; not once paid, nor Stripe’s', () => {
    expect(dueOf(subscription(76, 1, { payments: [period, proration] }))?.id).toBe(761);
    expect(dueOf(subscription(77, 3, { payments: [period, proration] }))?.id).toBe(761);
    expect(
      dueOf(subscription(78, 1, { payments: [period, { ...proration, paidAt: '2026-02-01T09:00:00Z' }] })),
    ).toBeNull();
    expect(dueOf(subscription(79, 1, { payments: [period, { ...proration, method: 'stripe' }] }))).toBeNull();
  });
});
