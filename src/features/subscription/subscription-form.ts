/**
 * The subscription form's rules are the contract's (contract/schemas/subscription.ts): react-hook-
 * form validates with `subscriptionCreateSchema` on create and `subscriptionUpdateSchema` on edit,
 * the same schemas the server parses the body with. The form keeps what a person types (Italian
 * decimals, '1.234,50' too); the schema's output is what is sent (cents and VAT hundredths).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { messages } from '../../../contract/messages';
import { fromCents, fromPercentHundredths } from '../../../contract/money';
import { subscriptionCreateSchema, subscriptionUpdateSchema } from '../../../contract/schemas/subscription';
import { normalizeDecimal } from './billing-format';
import type { SubscriptionBody } from './api/save-subscription';

/** What the form holds: the pickers' ids and the price as typed. */
export interface SubscriptionFormValues {
  userId: number | null;
  planId: number | null;
  paymentAmount: string;
  vatPercentage: string;
  /** Create only: a coupon's code as typed (issue 30). */
  couponCode?: string;
}

/** The schemas' output the form submits: ids, cents, VAT hundredths. */
export interface SubscriptionFormOutput {
  userId?: number;
  planId?: number;
  paymentAmount?: number | null;
  vatPercentage?: number | null;
  couponCode?: string | null;
}

/** The fields the server may name in its 400 (the form's own keys). */
export const subscriptionFormKeys = [
  'userId',
  'planId',
  'paymentAmount',
  'vatPercentage',
  'couponCode',
] as const;

/** The `type` of the create form's "pick a customer and a plan" error (shown once, above the buttons). */
export const PICK_REQUIRED = 'pickRequired';

/** Italian decimals ('1.234,50') as the schema reads them ('1234.50'); anything else as typed. */
const typed = (text: string) => normalizeDecimal(text) ?? text;

function withTypedDecimals(
  base: Resolver<Record<string, unknown>>,
): Resolver<SubscriptionFormValues, unknown, SubscriptionFormOutput> {
  return async (values, context, options) => {
    const result = await base(
      { ...values, paymentAmount: typed(values.paymentAmount), vatPercentage: typed(values.vatPercentage) },
      context,
      options as never,
    );
    return result as never;
  };
}

const createBase = withTypedDecimals(zodResolver(subscriptionCreateSchema) as never);

/**
 * Create: the contract's create schema; a missing customer or plan is said once, as the spec's
 * 'Seleziona un utente e un piano.' (on the customer field's error, drawn above the buttons).
 */
export const createResolver: Resolver<SubscriptionFormValues, unknown, SubscriptionFormOutput> = async (
  values,
  context,
  options,
) => {
  const result = await createBase(values, context, options);
  const errors = result.errors as FieldErrors<SubscriptionFormValues>;
  if (errors.userId || errors.planId) {
    return {
      values: {},
      errors: { userId: { type: PICK_REQUIRED, message: messages.subscription.pickRequired } },
    };
  }
  return result;
};

/**
 * Edit: the contract's update schema, without what the form does not send (the id goes with the
 * body, the customer is fixed after create), the plan required as on create (the picker may be
 * cleared).
 */
export const updateResolver = withTypedDecimals(
  zodResolver(
    subscriptionUpdateSchema
      .omit({ id: true, userId: true })
      .extend({ planId: subscriptionCreateSchema.shape.planId }),
  ) as never,
);

/** The body of Create / Update from the schema's output (euros and VAT % on the wire). */
export function subscriptionBody(out: SubscriptionFormOutput): SubscriptionBody {
  return {
    ...(out.userId !== undefined ? { userId: out.userId } : {}),
    planId: out.planId!,
    paymentAmount: fromCents(out.paymentAmount ?? 0),
    vatPercentage: fromPercentHundredths(out.vatPercentage ?? 0),
    ...(out.couponCode ? { couponCode: out.couponCode } : {}),
  };
}
