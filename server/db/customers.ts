import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { integrationMessages, serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';
import { tenantOf } from '../plugins/request-context';
import type { Database } from './client';
import { users, userTenants } from './schema';

/** How an API call names a tenant's customer (api/v1: `customerEmail` or `customerId`). */
export interface CustomerRef {
  customerEmail?: string;
  customerId?: number;
}

/** The tenant's customer by e-mail (case-insensitive) or id; undefined when not a member. */
export async function findCustomer(
  db: Database,
  tenantId: number,
  ref: CustomerRef,
): Promise<{ id: number; email: string } | undefined> {
  const where =
    ref.customerId !== undefined
      ? eq(users.id, ref.customerId)
      : sql`lower(${users.email}) = ${(ref.customerEmail ?? '').trim().toLowerCase()}`;
  const [row] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .innerJoin(userTenants, and(eq(userTenants.userId, users.id), eq(userTenants.tenantId, tenantId)))
    .where(where)
    .limit(1);
  return row;
}

/** The customer a /api/v1 call names, in the key's tenant; a 400 when it names none. */
export async function customerOf(db: Database, request: FastifyRequest, ref: CustomerRef) {
  if (!ref.customerEmail && ref.customerId === undefined)
    throw new HttpError(400, serverMessages.validation, {
      errors: [`customerEmail: ${integrationMessages.customerRequired}`],
    });
  return findCustomer(db, tenantOf(request), ref);
}
