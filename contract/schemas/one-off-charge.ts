/**
 * One-off charges ('Addebito una tantum', issue 30): `POST api/subscription/charges/{id}
 * {description, quantity, unitPrice, collect}`, `GET api/subscription/charges/{id}`, `DELETE
 * api/subscription/charges/{id}/{chargeId}` (a pending one). The unit price is in euros before VAT
 * (two decimals → integer cents); VAT, natura, cassa, ritenuta and bollo are the subscription's
 * fiscal treatment through the one document computation.
 */
import { z } from 'zod';
import { toCents } from '../money';

export const ONE_OFF_COLLECT = ['now', 'nextPayment'] as const;
export type OneOffCollect = (typeof ONE_OFF_COLLECT)[number];
export const oneOffCollectLabels: Record<OneOffCollect, string> = {
  now: 'Subito',
  nextPayment: 'Con il prossimo pagamento',
};
export const ONE_OFF_STATUSES = ['pending', 'paid', 'deleted'] as const;
export type OneOffStatus = (typeof ONE_OFF_STATUSES)[number];
export const oneOffStatusLabels: Record<OneOffStatus, string> = {
  pending: 'Da incassare',
  paid: 'Pagato',
  deleted: 'Eliminato',
};

export const oneOffMessages = {
  description: 'Scrivi una descrizione (da 1 a 200 caratteri)',
  quantity: 'La quantità deve essere un numero intero da 1 a 10000',
  unitPrice: 'Il prezzo unitario deve essere maggiore di zero, con al massimo due decimali',
  collect: 'Scegli quando incassare l’addebito',
  nextPaymentNotYet: 'L’incasso con il prossimo pagamento non è ancora disponibile: scegli «Subito».',
  notLive: 'Si può addebitare solo a una sottoscrizione attiva.',
  notPending: 'Si può eliminare solo un addebito ancora da incassare.',
  created: 'Addebito una tantum creato.',
  deleted: 'Addebito eliminato.',
} as const;

export const oneOffChargeSchema = z.object({
  description: z
    .string({ error: oneOffMessages.description })
    .trim()
    .min(1, { error: oneOffMessages.description })
    .max(200, { error: oneOffMessages.description }),
  quantity: z
    .number({ error: oneOffMessages.quantity })
    .int({ error: oneOffMessages.quantity })
    .min(1, { error: oneOffMessages.quantity })
    .max(10_000, { error: oneOffMessages.quantity }),
  unitPrice: z.union([z.number(), z.string()], { error: oneOffMessages.unitPrice }).transform((v, ctx) => {
    try {
      const cents = toCents(typeof v === 'string' ? v.replace(',', '.') : v);
      if (cents <= 0 || cents > 100_000_000) throw new RangeError();
      return cents;
    } catch {
      ctx.addIssue({ code: 'custom', message: oneOffMessages.unitPrice });
      return z.NEVER;
    }
  }),
  collect: z.enum(ONE_OFF_COLLECT, { error: oneOffMessages.collect }),
});
export type OneOffChargeInput = z.input<typeof oneOffChargeSchema>;

export interface OneOffCharge {
  id: number;
  subscriptionId: number;
  description: string;
  quantity: number;
  /** Euros before VAT. */
  unitPrice: number;
  collect: OneOffCollect;
  status: OneOffStatus;
  /** What its payment asks (EUR, the document's net to pay), or null. */
  amountDue: number | null;
  paymentId: number | null;
  createdAt: string;
  paidAt: string | null;
}

/**
 * A one-off charge as its customer sees it in their area (issue 30, `GET
 * api/user/me/subscriptions/{id}/charges`): the Admin's fields (deleted charges left out), its
 * invoice once paid and invoiced, and `payable` — a pending 'Subito' charge whose own payment waits
 * for the customer ('Paga ora'; not one Stripe charges on the subscription's card).
 */
export interface OwnOneOffCharge extends OneOffCharge {
  invoice: { id: number; number: string; documentType: 'TD01' | 'TD04'; fileName: string } | null;
  payable: boolean;
}

/** How the customer's area names a charge's state. */
export function ownChargeState(c: Pick<OneOffCharge, 'status' | 'collect'>): string {
  if (c.status === 'paid') return 'Pagato';
  return c.collect === 'nextPayment' ? 'Con il prossimo pagamento' : 'Da pagare';
}
