/**
 * Bank transfers of a payment (manual approval). Recorded only while the subscription waits for
 * the transfer; amounts > 0 whose total never exceeds the amount due; approval date not in the
 * future. The payment and its subscription are locked, so two Admins recording at once cannot
 * both pass the total check.
 */
import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import { billingMessages, serverMessages } from '../../../contract/messages';
import { fromCents } from '../../../contract/money';
import type { BankTransfer } from '../../../contract/schemas/subscription';
import { SubscriptionStatus } from '../../../contract/subscription-status';
import { bankTransfers } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { UnitOfWork, TenantScope } from '../../unit-of-work/unit-of-work';
import { findPayment, findSubscription } from './billing.repository';
import { formatEur } from './subscription.service';

export interface BankTransferWrite {
  paymentId: number;
  /** Cents, > 0. */
  amount: number;
  approvalDate?: Date | null;
}

function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, serverMessages.validation, { errors: [`${field}: ${message}`] });
}

const columns = {
  id: bankTransfers.id,
  paymentId: bankTransfers.paymentId,
  amountCents: bankTransfers.amountCents,
  approvalDate: bankTransfers.approvalDate,
  createdAt: bankTransfers.createdAt,
};
type Row = { id: number; paymentId: number; amountCents: number; approvalDate: Date | null; createdAt: Date };

const toItem = (r: Row): BankTransfer => ({
  id: r.id,
  paymentId: r.paymentId,
  amount: fromCents(r.amountCents),
  approvalDate: r.approvalDate?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

export async function listBankTransfers(
  scope: TenantScope,
  paymentId: number | undefined,
  page: number,
  pageSize: number,
): Promise<{ items: BankTransfer[]; totalCount: number }> {
  if (paymentId !== undefined && !(await findPayment(scope, paymentId)))
    throw new HttpError(404, serverMessages.notFound);
  const where = and(
    eq(bankTransfers.tenantId, scope.tenantId),
    paymentId !== undefined ? eq(bankTransfers.paymentId, paymentId) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    scope.tx
      .select(columns)
      .from(bankTransfers)
      .where(where)
      .orderBy(asc(bankTransfers.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    scope.tx
      .select({ n: sql<number>`count(*)::int` })
      .from(bankTransfers)
      .where(where),
  ]);
  return { items: rows.map(toItem), totalCount: count?.n ?? 0 };
}

/**
 * A keyset batch of the bank-transfer list for exports, in the list's order (oldest first): the
 * transfers after `afterId`, of one payment of the tenant (a 404 when it is not the tenant's) or
 * of all of them.
 */
export async function bankTransferExportBatch(
  scope: TenantScope,
  paymentId: number | undefined,
  afterId: number | undefined,
  limit: number,
): Promise<BankTransfer[]> {
  if (afterId === undefined && paymentId !== undefined && !(await findPayment(scope, paymentId)))
    throw new HttpError(404, serverMessages.notFound);
  const rows = await scope.tx
    .select(columns)
    .from(bankTransfers)
    .where(
      and(
        eq(bankTransfers.tenantId, scope.tenantId),
        paymentId !== undefined ? eq(bankTransfers.paymentId, paymentId) : undefined,
        afterId !== undefined ? gt(bankTransfers.id, afterId) : undefined,
      ),
    )
    .orderBy(asc(bankTransfers.id))
    .limit(limit);
  return rows.map(toItem);
}

/** The payment, locked, and a check that its subscription is waiting for the transfer. */
async function pendingPayment(uow: UnitOfWork, paymentId: number) {
  const payment = await findPayment(uow, paymentId, { lock: true });
  if (!payment) throw new HttpError(404, serverMessages.notFound);
  const sub = await findSubscription(uow, payment.subscriptionId, { lock: true });
  if (!sub) throw new HttpError(404, serverMessages.notFound);
  if (sub.status !== SubscriptionStatus.BankTransferPending)
    throw new HttpError(409, billingMessages.transfersOnlyWhilePending);
  return payment;
}

async function checkTotal(
  uow: UnitOfWork,
  payment: { id: number; amountDueCents: number },
  amount: number,
  excludeId?: number,
) {
  const [row] = await uow.tx
    .select({ total: sql<string>`coalesce(sum(${bankTransfers.amountCents}), 0)` })
    .from(bankTransfers)
    .where(
      and(
        eq(bankTransfers.tenantId, uow.tenantId),
        eq(bankTransfers.paymentId, payment.id),
        excludeId !== undefined ? ne(bankTransfers.id, excludeId) : undefined,
      ),
    );
  const total = Number(row?.total ?? 0) + amount;
  if (total > payment.amountDueCents)
    throw fieldError(
      'amount',
      billingMessages.overAmountDue(formatEur(total), formatEur(payment.amountDueCents)),
    );
}

function checkApproval(uow: UnitOfWork, approvalDate: Date | null | undefined) {
  if (approvalDate && approvalDate.getTime() > uow.now.getTime())
    throw fieldError('approvalDate', billingMessages.approvalInFuture);
}

export async function createBankTransfer(uow: UnitOfWork, input: BankTransferWrite): Promise<BankTransfer> {
  checkApproval(uow, input.approvalDate);
  const payment = await pendingPayment(uow, input.paymentId);
  await checkTotal(uow, payment, input.amount);
  const [row] = await uow.tx
    .insert(bankTransfers)
    .values({
      tenantId: uow.tenantId,
      paymentId: payment.id,
      amountCents: input.amount,
      approvalDate: input.approvalDate ?? null,
      createdAt: uow.now,
      updatedAt: uow.now,
    })
    .returning(columns);
  if (!row) throw new Error('bank transfer insert returned no row');
  if (row.approvalDate)
    await uow.publish('bankTransfer.approved', { bankTransferId: row.id, paymentId: row.paymentId });
  return toItem(row);
}

async function existing(uow: UnitOfWork, id: number) {
  const [row] = await uow.tx
    .select(columns)
    .from(bankTransfers)
    .where(and(eq(bankTransfers.tenantId, uow.tenantId), eq(bankTransfers.id, id)));
  if (!row) throw new HttpError(404, serverMessages.notFound);
  return row;
}

export async function updateBankTransfer(
  uow: UnitOfWork,
  id: number,
  input: BankTransferWrite,
): Promise<BankTransfer> {
  checkApproval(uow, input.approvalDate);
  const current = await existing(uow, id);
  // A transfer stays with its payment: a different paymentId is treated as not found.
  if (current.paymentId !== input.paymentId) throw new HttpError(404, serverMessages.notFound);
  const payment = await pendingPayment(uow, current.paymentId);
  await checkTotal(uow, payment, input.amount, id);
  const [row] = await uow.tx
    .update(bankTransfers)
    .set({ amountCents: input.amount, approvalDate: input.approvalDate ?? null, updatedAt: uow.now })
    .where(and(eq(bankTransfers.tenantId, uow.tenantId), eq(bankTransfers.id, id)))
    .returning(columns);
  if (!row) throw new HttpError(404, serverMessages.notFound);
  if (row.approvalDate && !current.approvalDate)
    await uow.publish('bankTransfer.approved', { bankTransferId: row.id, paymentId: row.paymentId });
  return toItem(row);
}

export async function deleteBankTransfer(uow: UnitOfWork, id: number): Promise<void> {
  const current = await existing(uow, id);
  await pendingPayment(uow, current.paymentId);
  await uow.tx
    .delete(bankTransfers)
    .where(and(eq(bankTransfers.tenantId, uow.tenantId), eq(bankTransfers.id, id)));
}
