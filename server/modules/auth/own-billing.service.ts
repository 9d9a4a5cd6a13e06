import { and, eq } from 'drizzle-orm';
import { serverMessages } from '../../../contract/messages';
import type { CustomerBilling, CustomerBillingInputParsed, User } from '../../../contract/schemas/user';
import type { Database, Executor } from '../../db/client';
import { updateMember } from '../../db/members';
import { userTenants } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import { resolveBillingAddress } from './billing-address';
import { listUsers } from './user.entity';

const own = (tenantId: number, userId: number) =>
  and(eq(userTenants.tenantId, tenantId), eq(userTenants.userId, userId));

/** The caller's own record in the tenant: 404 when they are not its member (a SuperAdmin passing by). */
export async function ownRecord(db: Database, tenantId: number, userId: number): Promise<CustomerBilling> {
  const [user] = await listUsers(db, { where: own(tenantId, userId), limit: 1 });
  if (!user) throw new HttpError(404, serverMessages.notFound);
  return pick(user);
}

function pick(u: User): CustomerBilling {
  const { id, name, email, isCompany, fiscalCode, vatCode, countryCode, billingCity, sdi, pec, phone } = u;
  return {
    id,
    name,
    email,
    isCompany,
    fiscalCode,
    vatCode,
    countryCode,
    billingCity,
    sdi,
    pec,
    phone,
    billingAddress: u.billingAddress,
  };
}

async function assertMember(db: Executor, tenantId: number, userId: number) {
  const [row] = await db
    .select({ userId: userTenants.userId })
    .from(userTenants)
    .where(own(tenantId, userId));
  if (!row) throw new HttpError(404, serverMessages.notFound);
}

/** What the customer's save writes: their own fiscal data and address, nothing of the seller's. */
function profileOf(input: CustomerBillingInputParsed) {
  return {
    name: input.name,
    isCompany: input.isCompany,
    fiscalCode: input.fiscalCode ?? null,
    vatCode: input.vatCode ?? null,
    countryCode: input.countryCode,
    billingCity: input.billingCity ?? null,
    sdi: input.sdi ?? null,
    pec: input.pec ?? null,
    phone: input.phone ?? null,
  };
}

/**
 * Saves the caller's own record in the unit's tenant (a unit over both databases) and publishes
 * `customer.billingDataChanged`, as user Update does: invoicing issues the payments waiting for
 * these data in this unit, and its report's figures say how many were issued and still wait.
 * 404 when the caller is no member of the tenant; a 400 of the address leaves nothing written.
 */
export async function saveOwnBilling(
  w: UnitOfWork,
  userId: number,
  input: CustomerBillingInputParsed,
): Promise<{ issued: number; waiting: number }> {
  const tenantId = w.tenantId;
  await assertMember(w.tx, tenantId, userId);
  const billing = await resolveBillingAddress(w.tx, input);
  await updateMember(w, userId, tenantId, { ...profileOf(input), ...billing });
  const reports = await w.publish('customer.billingDataChanged', { userId });
  const figures = reports.find((r) => r.consumer === 'invoice.retryCustomer')?.figures;
  return { issued: figures?.issued ?? 0, waiting: figures?.waiting ?? 0 };
}
