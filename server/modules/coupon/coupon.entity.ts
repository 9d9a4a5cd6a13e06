/**
 * Coupons of a tenant (issue 30; api-contract 'Changes after the first payment'): the generic set
 * `api/coupon/getAll|GetById|Create|Update|Delete`, Admin and SuperAdmin, in the tenant's database.
 * A coupon already redeemed is never deleted (409): it is deactivated by a past `expiresAt`.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { romeDay } from '../../../contract/billing-dates';
import { entityRoles } from '../../../contract/access';
import { couponList } from '../../../contract/lists/coupon';
import { couponMessages, serverMessages } from '../../../contract/messages';
import {
  couponActive,
  couponDiscountLabel,
  couponDurationLabel,
  couponDurations,
  couponUsageLabel,
  couponFigures,
  couponInputSchema,
  couponRule,
  type Coupon,
  type CouponDuration,
  type CouponValues,
} from '../../../contract/schemas/coupon';
import { coupons, plans } from '../../db/schema';
import type { EntityDefinition } from '../../crud/entity';
import { bindFilters, bindSorts } from '../../crud/list-binding';
import { textSort } from '../../crud/sort';
import { byName, windowed } from '../../crud/window';
import { HttpError } from '../../lib/http-error';
import type { GlobalUnitOfWork } from '../../unit-of-work/unit-of-work';

const couponItem: z.ZodType<Coupon> = z.object({
  id: z.number(),
  code: z.string(),
  percentOff: z.number().nullable(),
  amountOff: z.number().nullable(),
  duration: z.enum(couponDurations),
  durationPeriods: z.number().nullable(),
  planIds: z.array(z.number()),
  expiresAt: z.string().nullable(),
  maxRedemptions: z.number().nullable(),
  timesRedeemed: z.number(),
  active: z.boolean(),
  discountLabel: z.string(),
  durationLabel: z.string(),
  usageLabel: z.string(),
  createdAt: z.string(),
});

/** The contract's input with its rules between fields (one discount; periods for 'repeating'). */
export const couponInput = couponInputSchema.superRefine(couponRule);

const fieldError = (field: string, message: string) =>
  new HttpError(400, serverMessages.validation, { errors: [`${field}: ${message}`] });

/** The columns a coupon's input writes. */
function rowOf(input: CouponValues, now: Date) {
  const repeating = input.duration === 'repeating';
  return {
    code: input.code,
    percentOffHundredths: input.percentOff ?? null,
    amountOffCents: input.percentOff != null ? null : (input.amountOff ?? null),
    duration: input.duration,
    durationPeriods: repeating ? (input.durationPeriods ?? null) : null,
    ...(input.planIds !== undefined ? { planIds: input.planIds } : {}),
    expiresAt: input.expiresAt ?? null,
    maxRedemptions: input.maxRedemptions ?? null,
    updatedAt: now,
  };
}

/** Every id of `planIds` is a plan of the tenant, else a 400 on `planIds`. */
async function assertPlans(w: GlobalUnitOfWork, tenantId: number, planIds: readonly number[]) {
  if (planIds.length === 0) return;
  const found = await w.tx
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.tenantId, tenantId), inArray(plans.id, [...planIds])));
  if (found.length !== planIds.length) throw fieldError('planIds', couponMessages.planUnknown);
}

function tenantOf(caller: { tenantId: number | null }): number {
  if (caller.tenantId === null) throw new HttpError(400, serverMessages.tenantRequired);
  return caller.tenantId;
}

async function lockedCoupon(w: GlobalUnitOfWork, tenantId: number, id: number) {
  const [row] = await w.tx
    .select({ id: coupons.id, timesRedeemed: coupons.timesRedeemed })
    .from(coupons)
    .where(and(eq(coupons.tenantId, tenantId), eq(coupons.id, id)))
    .for('update');
  if (!row) throw new HttpError(404, serverMessages.notFound);
  return row;
}

export interface CouponEntityDeps {
  /** The server's clock: a coupon is active until its last day (Europe/Rome). */
  clock: () => Date;
}

export function couponEntity({
  clock,
}: CouponEntityDeps): EntityDefinition<typeof coupons, Coupon, typeof couponInput> {
  return {
    name: 'coupon',
    table: coupons,
    id: coupons.id,
    scope: { kind: 'tenant', column: coupons.tenantId },
    searchColumns: [coupons.code],
    filters: bindFilters(couponList, { code: coupons.code }),
    naturalOrder: textSort(coupons.code),
    sortable: bindSorts(couponList, {
      code: textSort(coupons.code),
      timesRedeemed: { column: coupons.timesRedeemed },
      expiresAt: { column: coupons.expiresAt },
    }),
    item: couponItem,
    input: couponInput,
    label: (c) => c.code,
    list: async (db, window) => {
      const rows = await windowed(
        db
          .select({
            id: coupons.id,
            code: coupons.code,
            percentOffHundredths: coupons.percentOffHundredths,
            amountOffCents: coupons.amountOffCents,
            duration: coupons.duration,
            durationPeriods: coupons.durationPeriods,
            planIds: coupons.planIds,
            expiresAt: coupons.expiresAt,
            maxRedemptions: coupons.maxRedemptions,
            timesRedeemed: coupons.timesRedeemed,
            createdAt: coupons.createdAt,
          })
          .from(coupons)
          .orderBy(...byName(coupons.code, coupons.id))
          .$dynamic(),
        window,
      );
      const today = romeDay(clock());
      return rows.map(({ percentOffHundredths, amountOffCents, createdAt, ...r }) => {
        const figures = couponFigures(percentOffHundredths, amountOffCents);
        const duration = r.duration as CouponDuration;
        return {
          ...r,
          ...figures,
          duration,
          active: couponActive(r, today),
          discountLabel: couponDiscountLabel(figures),
          durationLabel: couponDurationLabel({ duration, durationPeriods: r.durationPeriods }),
          usageLabel: couponUsageLabel(r),
          createdAt: createdAt.toISOString(),
        };
      });
    },
    writes: {
      async create(w, caller, input) {
        const tenantId = tenantOf(caller);
        await assertPlans(w, tenantId, input.planIds ?? []);
        const [row] = await w.tx
          .insert(coupons)
          .values({ planIds: [], ...rowOf(input, w.now), tenantId, createdAt: w.now })
          .returning({ id: coupons.id });
        if (!row) throw new Error('coupon insert returned no row');
        return row.id;
      },
      async update(w, caller, id, input) {
        const tenantId = tenantOf(caller);
        const stored = await lockedCoupon(w, tenantId, id);
        await assertPlans(w, tenantId, input.planIds ?? []);
        if (input.maxRedemptions != null && input.maxRedemptions < stored.timesRedeemed)
          throw fieldError('maxRedemptions', couponMessages.maxBelowRedeemed(stored.timesRedeemed));
        await w.tx
          .update(coupons)
          .set(rowOf(input, w.now))
          .where(and(eq(coupons.tenantId, tenantId), eq(coupons.id, id)));
      },
      async remove(w, caller, id) {
        const tenantId = tenantOf(caller);
        const stored = await lockedCoupon(w, tenantId, id);
        if (stored.timesRedeemed > 0) throw new HttpError(409, couponMessages.deleteRedeemed);
        await w.tx.delete(coupons).where(and(eq(coupons.tenantId, tenantId), eq(coupons.id, id)));
      },
    },
    roles: entityRoles('coupon'),
  };
}
