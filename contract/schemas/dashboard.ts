import { z } from 'zod';

/**
 * `GET api/dashboard/summary`: everything the dashboard draws, computed on the server from the
 * tenant's subscriptions, payments and status history for the 12 calendar months (Europe/Rome)
 * ending with the current one. Money in integer euro cents, before VAT.
 *
 * - live: a subscription is live while its status is Active or ActiveNoRenewal;
 * - `mrrCents`: Σ over live subscriptions of (agreed cost before VAT ÷ the plan's recurrence
 *   months), rounded half-up to the cent once, on the total;
 * - `months[i].revenueCents`: payments received (paid) in the month, before VAT (each payment's
 *   amount ÷ (1 + its subscription's VAT), half-up to the cent);
 * - `months[i].newSubscriptions`: moves into a live status in the month (activation, bank
 *   transfer confirmed, reactivation); `churned`: moves out of a live status (cancelled,
 *   suspended, expired without renewal);
 * - `months[i].active`: live subscriptions at the month's end (for the current month: now);
 * - `activeSubscriptions` = the current month's `active`; `plans`: live subscriptions per plan;
 * - `churnRate` (spec §9) = current month's churned ÷ (live subscriptions + that churn) × 100,
 *   one decimal, null when both are 0;
 * - `momChange` (spec §9) = (current active − previous month's active) ÷ previous active × 100,
 *   two decimals, null when the previous month had none;
 * - `newCustomersThisMonth`: customers whose first ever move into a live status (any of their
 *   subscriptions in this tenant) happened this month.
 */
export const dashboardMonthSchema = z.object({
  /** 'YYYY-MM' on Rome's calendar. */
  month: z.string(),
  /** Italian short label, e.g. 'nov 25'. */
  label: z.string(),
  revenueCents: z.number().int(),
  newSubscriptions: z.number().int(),
  churned: z.number().int(),
  active: z.number().int(),
});

export const dashboardSummarySchema = z.object({
  currency: z.literal('EUR'),
  timeZone: z.literal('Europe/Rome'),
  generatedAt: z.string(),
  mrrCents: z.number().int(),
  activeSubscriptions: z.number().int(),
  churnRate: z.number().nullable(),
  newCustomersThisMonth: z.number().int(),
  momChange: z.number().nullable(),
  months: z.array(dashboardMonthSchema),
  plans: z.array(z.object({ planId: z.number().int(), name: z.string(), value: z.number().int() })),
  /** For the empty state: does the tenant have any plan, any subscription? */
  hasPlans: z.boolean(),
  hasSubscriptions: z.boolean(),
  /** Issue 29: overdue payments now, and those recovered this Rome month (CollectionFigures, EUR). */
  collection: z.object({
    overdue: z.object({ count: z.number().int(), amount: z.number() }),
    recoveredThisMonth: z.object({
      count: z.number().int(),
      amount: z.number(),
      rate: z.number().nullable(),
    }),
  }),
  /**
   * Issue 30 ('Prove'): `running` = trials now running (started, not yet paid nor ended);
   * `converted` / `expired` = trials of the 12 months' window decided (their end in the window, or
   * converted early: their end on or after the window's start) by the first payment or by their end
   * unpaid; `conversionRate` = converted ÷ (converted + expired) × 100, one decimal, null on ÷ 0.
   */
  trials: z
    .object({
      running: z.number().int(),
      converted: z.number().int(),
      expired: z.number().int(),
      conversionRate: z.number().nullable(),
    })
    .optional(),
});

export type DashboardMonth = z.infer<typeof dashboardMonthSchema>;
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;
