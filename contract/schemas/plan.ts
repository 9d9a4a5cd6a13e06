import { featureKeySchema } from '../integrations';
import { z } from 'zod';
import { DEFAULT_VAT_PERCENTAGE, type RecurrenceType } from '../enums';
import { isNatura, type Natura } from '../invoice/fatturapa';
import { invoiceMessages } from '../messages';
import { validationMessages } from '../validation/italian';
import { optionalId } from './common';
import {
  bindKeys,
  hasAtMostTwoDecimals,
  optionalText,
  requiredNumber,
  requiredRef,
  requiredText,
} from './fields';

export type RecurrenceTypeId = (typeof RecurrenceType)[keyof typeof RecurrenceType];

/**
 * SPA route of a plan's public subscription widget, `{origin}/widget/plan?planId={id}`: what the
 * embed code of `GET api/plan/iframe?planId=` points at. Kept stable, since embed codes are
 * pasted into other sites.
 */
export const PLAN_WIDGET_PATH = '/widget/plan';
export const recurrenceTypeIds = [1, 2, 3, 4, 6, 12] as const satisfies readonly RecurrenceTypeId[];

/**
 * Italian names of the recurrence (months). The spec names 4 "quadrennial (as named)", but the
 * value is 4 months: the honest Italian word is 'Quadrimestrale' (every four months), used here;
 * the enum key keeps the spec's name.
 */
export const recurrenceTypeNames: Record<RecurrenceTypeId, string> = {
  1: 'Mensile',
  2: 'Bimestrale',
  3: 'Trimestrale',
  4: 'Quadrimestrale',
  6: 'Semestrale',
  12: 'Annuale',
};

export interface PlanFeatureItem {
  id: number;
  featureName: string;
  description: string | null;
}

/** A plan as the server answers it (tenant-scoped). */
export interface Plan {
  id: number;
  name: string;
  /** EUR before VAT, 2 decimals, as a JSON number. */
  recurringCostBeforeVAT: number;
  /** Percent, 2 decimals; 22 unless set. */
  vatPercentage: number;
  recurrenceType: RecurrenceTypeId;
  /** From `recurrenceTypeNames`. */
  recurrenceTypeName: string;
  /** FatturaPA Natura of a 0 % plan (N1–N7 with sub-codes); null when VAT applies. */
  natura: Natura | null;
  paypalPlanId: string | null;
  stripePlanId: string | null;
  isActive: boolean;
  /**
   * Issue 30 ('Prove'): days of free trial a new subscription on the plan starts with, or null
   * (no trial; 0 reads the same).
   */
  trialDays?: number | null;
  planFeatures: PlanFeatureItem[];
}

/** The longest trial a plan may offer (days). */
export const MAX_TRIAL_DAYS = 365;

/** Italian field errors of `trialDays` ('Giorni di prova'). */
export const trialMessages = {
  label: 'Giorni di prova',
  invalid: `I giorni di prova devono essere un numero intero tra 0 e ${MAX_TRIAL_DAYS}.`,
} as const;

/** `trialDays`: '' / null / absent → null; otherwise an integer 0–365 (a '14' string too). */
export const trialDaysSchema = z.preprocess(
  (v) => {
    if (v === '' || v === undefined || v === null) return null;
    if (typeof v === 'string') {
      const n = Number(v.trim());
      return v.trim() === '' ? null : Number.isNaN(n) ? v : n;
    }
    return v;
  },
  z
    .number({ error: trialMessages.invalid })
    .refine((n) => Number.isInteger(n) && n >= 0 && n <= MAX_TRIAL_DAYS, { message: trialMessages.invalid })
    .nullable(),
);

/** Body of `POST api/plan/Create` and `PUT api/plan/Update` (with `id`). `planFeatures` is not read here. */
export const planInputSchema = z.object({
  id: optionalId,
  name: requiredText(150, validationMessages.planNameRequired),
  recurringCostBeforeVAT: requiredNumber(
    validationMessages.costRequired,
    validationMessages.costInvalid,
  ).refine((n) => Number.isFinite(n) && n >= 0 && n <= 1_000_000 && hasAtMostTwoDecimals(n), {
    message: validationMessages.costInvalid,
  }),
  vatPercentage: requiredNumber(
    validationMessages.vatRequired,
    validationMessages.vatPercentageInvalid,
  ).refine((n) => Number.isFinite(n) && n >= 0 && n <= 100 && hasAtMostTwoDecimals(n), {
    message: validationMessages.vatPercentageInvalid,
  }),
  recurrenceType: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v === '' ? undefined : v),
    z.literal(recurrenceTypeIds, {
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? validationMessages.recurrenceRequired
          : validationMessages.recurrenceInvalid,
    }),
  ),
  natura: z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.string().refine(isNatura, { message: invoiceMessages.naturaInvalid }).nullable(),
  ),
  paypalPlanId: optionalText(100),
  stripePlanId: optionalText(100),
  isActive: z.boolean().optional().default(true),
  trialDays: trialDaysSchema.optional(),
});

/**
 * A 0 % plan needs its Natura (the SdI refuses a 0 % line without one) and a Natura goes only
 * with 0 %. The server applies it last (a refined object cannot be extended); the plan form shows
 * the server's answer.
 */
export function naturaRule(
  value: { vatPercentage: number; natura?: string | null },
  ctx: z.RefinementCtx,
): void {
  if (value.vatPercentage === 0 && !value.natura)
    ctx.addIssue({ code: 'custom', path: ['natura'], message: invoiceMessages.naturaRequired });
  if (value.vatPercentage !== 0 && value.natura)
    ctx.addIssue({ code: 'custom', path: ['natura'], message: invoiceMessages.naturaOnlyAtZero });
}
export type PlanInput = z.input<typeof planInputSchema>;
export { DEFAULT_VAT_PERCENTAGE };

/** A feature of the catalogue (`api/feature/*`). */
export interface Feature {
  id: number;
  featureName: string;
  /** Stable machine key for the entitlement API (issue 15); from the name when created without one. */
  key: string;
  description: string | null;
}
export const featureInputSchema = z.object({
  id: optionalId,
  featureName: requiredText(150, validationMessages.featureNameRequired),
  /** Absent on Create: the name's slug; absent on Update: unchanged. */
  key: z.preprocess((v) => (v === '' || v === null ? undefined : v), featureKeySchema.optional()),
  description: optionalText(1000),
});
export type FeatureInput = z.input<typeof featureInputSchema>;

/** A feature row of one plan (`api/planfeature/*`): it holds its own name and description. */
export interface PlanFeature {
  id: number;
  planId: number;
  plan: { id: number; name: string } | null;
  featureName: string;
  description: string | null;
}
export const planFeatureInputSchema = z.object({
  id: optionalId,
  planId: requiredRef(validationMessages.planRequired),
  featureName: requiredText(150, validationMessages.featureNameRequired),
  description: optionalText(1000),
});
export type PlanFeatureInput = z.input<typeof planFeatureInputSchema>;

/** One item of `POST api/plan/associateFeatures/{planId}`; keys bind case-insensitively. */
export const associateFeatureItemSchema = z.preprocess(
  bindKeys(['featureName', 'description']),
  z.object({
    featureName: requiredText(150, validationMessages.featureNameRequired),
    description: optionalText(1000),
  }),
);
/**
 * Body of `POST api/plan/associateFeatures/{planId}`: the plan's complete new feature list (it
 * replaces the old one; [] removes all). Answer: `data` = the plan's features after the change.
 */
export const associateFeaturesSchema = z.array(associateFeatureItemSchema).max(100);
export type AssociateFeaturesInput = z.input<typeof associateFeaturesSchema>;
