/**
 * The SdI's answers about a sent invoice (issue 12: 'delivered/rejected when later known'). The SdI
 * sends them as XML files (messaggi v1.0) to the PEC mailbox the invoice came from; an Admin loads
 * the file on the invoice screen ('Carica ricevuta SdI') and the invoice's status follows:
 * - RicevutaConsegna (RC) → delivered ('Consegnata');
 * - NotificaScarto (NS) → rejected ('Scartata'), with the SdI's errors (a rejected invoice is
 *   corrected and sent again within 5 days: 'Invia allo SdI' is offered again);
 * - NotificaMancataConsegna (MC): the SdI could not deliver it, but the invoice is issued and
 *   waits in the customer's reserved area; the status does not change (said so).
 * The receipt names its invoice by file name (NomeFile); another tenant's file is not found.
 * Parsed with xmlbuilder2, which does not resolve external entities.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { create } from 'xmlbuilder2';
import { receiptMessages } from '../../../contract/messages';
import { invoices } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';

export interface SdiReceipt {
  kind: 'RC' | 'NS' | 'MC';
  fileName: string;
  sdiId: string | null;
  errors: string[];
}

const KINDS: Record<string, SdiReceipt['kind']> = {
  RicevutaConsegna: 'RC',
  NotificaScarto: 'NS',
  NotificaMancataConsegna: 'MC',
};

const text = (v: unknown): string | null => (typeof v === 'string' ? v.trim() : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** The receipt in a file, or null when it is not one the product reads. */
export function parseSdiReceipt(xml: string): SdiReceipt | null {
  let doc: Record<string, unknown>;
  try {
    doc = create(xml).end({ format: 'object' }) as Record<string, unknown>;
  } catch {
    return null;
  }
  const [rootName] = Object.keys(doc);
  if (!rootName) return null;
  const kind = KINDS[rootName.split(':').pop() ?? ''];
  const root = doc[rootName] as Record<string, unknown> | undefined;
  if (!kind || !root || typeof root !== 'object') return null;
  const fileName = text(root.NomeFile);
  if (!fileName) return null;
  const errors = list((root.ListaErrori as Record<string, unknown> | undefined)?.Errore).map((e) => {
    const err = (e ?? {}) as Record<string, unknown>;
    return [text(err.Codice), text(err.Descrizione), text(err.Suggerimento)].filter(Boolean).join(' – ');
  });
  return { kind, fileName: fileName.slice(0, 200), sdiId: text(root.IdentificativoSdI), errors };
}

/** Applies a receipt to its invoice in the unit of work; answers the invoice id and the message. */
export async function applySdiReceipt(
  w: UnitOfWork,
  xml: string,
): Promise<{ invoiceId: number; message: string }> {
  const receipt = parseSdiReceipt(xml);
  if (!receipt) throw new HttpError(400, receiptMessages.unreadable);
  const [inv] = await w.tx
    .select({ id: invoices.id, number: invoices.numberText, status: invoices.status })
    .from(invoices)
    .where(and(eq(invoices.tenantId, w.tenantId), eq(invoices.fileName, receipt.fileName)))
    .for('update');
  if (!inv) throw new HttpError(404, receiptMessages.unknownFile(receipt.fileName));
  if (receipt.kind === 'MC') return { invoiceId: inv.id, message: receiptMessages.notDelivered(inv.number) };
  const status = receipt.kind === 'RC' ? 'delivered' : 'rejected';
  if (inv.status === status) return { invoiceId: inv.id, message: receiptMessages.already(inv.number) };
  // A delivered invoice is final; a rejected one may be delivered after it is sent again.
  if (inv.status === 'delivered') throw new HttpError(409, receiptMessages.alreadyDelivered(inv.number));
  const note = receipt.kind === 'NS' ? receipt.errors.join('; ').slice(0, 2000) || null : null;
  await w.tx
    .update(invoices)
    .set({ status, statusAt: w.now, sdiId: receipt.sdiId?.slice(0, 50) ?? null, sdiNote: note })
    .where(
      and(
        eq(invoices.tenantId, w.tenantId),
        eq(invoices.id, inv.id),
        inArray(invoices.status, ['issued', 'sent', 'rejected']),
      ),
    );
  return {
    invoiceId: inv.id,
    message:
      status === 'delivered' ? receiptMessages.delivered(inv.number) : receiptMessages.rejected(inv.number),
  };
}
