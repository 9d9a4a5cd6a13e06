/**
 * The document a payment would produce, as `POST api/subscription/quote` answers it (api-contract
 * 'Fiscal profiles'): amounts in euros with two decimals, from the one computation
 * (fiscal-document.ts). `netToPay` is what the customer is asked to pay everywhere.
 */
import { z } from 'zod';
import { fromCents, fromPercentHundredths } from '../money';
import { naturaIds, type Natura } from './fatturapa';
import type { FiscalDocument } from './fiscal-document';

export const quoteLineSchema = z.object({
  description: z.string(),
  quantity: z.number(),
  unitPrice: z.number(),
  vatPercentage: z.number(),
  natura: z.enum(naturaIds as [Natura, ...Natura[]]).nullable(),
  /**
   * What a coupon takes off this line, before VAT (issue 30); absent without one. The line's total
   * is unitPrice × quantity − discount.
   */
  discount: z.number().optional(),
});

export const quoteSchema = z.object({
  lines: z.array(quoteLineSchema),
  /** Fees and cassa before VAT, after the discounts. */
  taxable: z.number(),
  /** What the coupon takes off, before VAT; absent without one. */
  discount: z.number().optional(),
  vat: z.number(),
  /** Cassa previdenziale or rivalsa INPS. */
  cassa: z.number(),
  /** The bollo charged to the customer (0 when the seller bears it or none is due). */
  bollo: z.number(),
  total: z.number(),
  /** Ritenuta d'acconto the customer withholds. */
  withholding: z.number(),
  netToPay: z.number(),
  natura: z.enum(naturaIds as [Natura, ...Natura[]]).nullable(),
  legalReference: z.string().nullable(),
});
export type Quote = z.infer<typeof quoteSchema>;

/** The wire form of a computed document. */
export function toQuote(d: FiscalDocument): Quote {
  return {
    lines: d.lines
      // The charges and an OSS line of foreign VAT; the bollo has its own figure.
      .filter((l) => l.kind !== 'stampDuty')
      .map((l) => ({
        description: l.description,
        quantity: l.quantity,
        unitPrice: fromCents(l.unitPriceCents),
        vatPercentage: fromPercentHundredths(l.vat),
        natura: l.natura,
        ...(l.discount ? { discount: fromCents(l.discount.cents) } : {}),
      })),
    taxable: fromCents(d.taxableCents),
    ...(d.discountCents > 0 ? { discount: fromCents(d.discountCents) } : {}),
    vat: fromCents(d.vatCents),
    cassa: fromCents(d.pensionFundCents),
    bollo: fromCents(d.stampDutyChargedCents),
    total: fromCents(d.totalCents),
    withholding: fromCents(d.withholding?.amountCents ?? 0),
    netToPay: fromCents(d.netToPayCents),
    natura: d.treatment.natura,
    legalReference: d.treatment.legalReference,
  };
}
