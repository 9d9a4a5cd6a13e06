/**
 * Invoices of paid payments (issue 12). `issueInvoiceForPayment(w, paymentId)` runs inside the
 * unit of work that records the payment as paid: it issues the FatturaPA invoice with the next
 * gap-free number of the tenant's year, or, when data the SdI needs are missing, records why
 * (invoice_issues) and lets the payment stand. Called by confirmBankTransfer; the PayPal payment
 * and webhook renewals call it the same way.
 */
import { changeOffsetCausali, creditUsedBy, setOffCausali } from '../../db/credits';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { romeCalendarDay } from '../../../contract/billing-dates';
import { isNatura, type Natura } from '../../../contract/invoice/fatturapa';
import { invoiceMessages, serverMessages } from '../../../contract/messages';
import { changePlanMessages, subscriptionPeriodLine } from '../../../contract/proration';
import { creditNoteDocument } from '../../../contract/invoice/plan-change';
import { fromCents } from '../../../contract/money';
import type { CustomerFieldKey, MissingField, SellerFieldKey } from '../../../contract/schemas/invoice';
import {
  invoiceCounters,
  invoiceIssues,
  invoices,
  municipalities,
  oneOffCharges,
  payments,
  planChanges,
  plans,
  provinces,
  subscriptions,
  tenants,
  users,
  userTenants,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';
import type { TenantScope } from '../../unit-of-work/unit-of-work';
import {
  buildFatturaXml,
  fatturaErrors,
  fatturaErrorsMany,
  fiscalParts,
  type InvoiceDocument,
  type InvoiceParty,
} from './fatturapa';
import {
  customerProfileOf,
  oneOffDocument,
  sellerProfileOf,
  subscriptionDocument,
  type ExtraLine,
} from '../../db/fiscal-profiles';
import { discountOfPayment } from '../../db/coupons';

export type IssueOutcome =
  { kind: 'issued' | 'exists'; invoiceId: number; number: string } | { kind: 'blocked'; messages: string[] };

/** The plan a change left (its recurrence tells a whole new period from the rest of one). */
const fromPlan = alias(plans, 'from_plan');

const eur = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });

/** YYYY-MM-DD of an instant on Rome's calendar. */
export function romeDate(date: Date): string {
  const { year, month, day } = romeCalendarDay(date);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
/** The calendar day before a YYYY-MM-DD. */
function dayBefore(isoDate: string): string {
  const d = new Date(`${isoDate}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
const italianDate = (iso: string) => iso.split('-').reverse().join('/');

/** 'DE123456789' → { DE, 123456789 }, '09876540155' → { IT, … }; Greece's VAT prefix EL is IdPaese GR. */
export function vatIdOf(vatCode: string, fallbackCountry = 'IT'): { country: string; code: string } {
  const v = vatCode.replace(/\s+/g, '').toUpperCase();
  const m = /^([A-Z]{2})(.+)$/.exec(v);
  if (!m) return { country: fallbackCountry, code: v };
  return { country: m[1] === 'EL' ? 'GR' : m[1]!, code: m[2]! };
}

/** ProgressivoInvio and file-name suffix: base 36 of (year mod 100, number), 5 characters. */
export function progressiveOf(year: number, number: number): string {
  return ((year % 100) * 1_000_000 + number).toString(36).toUpperCase().padStart(5, '0');
}

function personName(name: string, isCompany: boolean): InvoiceParty['name'] {
  const parts = name.trim().split(/\s+/);
  if (isCompany || parts.length < 2) return { company: name.trim() };
  return { first: parts[0]!, last: parts.slice(1).join(' ') };
}

/** The seller's data the invoice reads: the tenant's billing profile ('Dati di fatturazione'). */
export async function sellerOf(scope: TenantScope) {
  const [row] = await scope.tx
    .select({
      name: tenants.name,
      legalName: tenants.legalName,
      vatCode: tenants.vatCode,
      fiscalCode: tenants.fiscalCode,
      taxRegime: tenants.taxRegime,
      street: tenants.street,
      zip: tenants.zip,
      pec: tenants.pec,
      iban: tenants.iban,
      province: provinces.abbreviation,
      municipality: municipalities.name,
    })
    .from(tenants)
    .leftJoin(provinces, eq(provinces.id, tenants.provinceId))
    .leftJoin(municipalities, eq(municipalities.id, tenants.municipalityId))
    .where(eq(tenants.id, scope.tenantId));
  if (!row) throw new HttpError(404, serverMessages.notFound);
  return row;
}

/** The customers' data the invoice reads (the tenant's record of each), for the ids given. */
export async function customersOf(scope: TenantScope, userIds: readonly number[]) {
  if (userIds.length === 0) return [];
  return customerQuery(scope).where(
    and(eq(userTenants.tenantId, scope.tenantId), inArray(userTenants.userId, [...userIds])),
  );
}

async function customerOf(scope: TenantScope, userId: number) {
  const [row] = await customerQuery(scope).where(
    and(eq(userTenants.tenantId, scope.tenantId), eq(userTenants.userId, userId)),
  );
  if (!row) throw new HttpError(404, serverMessages.notFound);
  return row;
}

function customerQuery(scope: TenantScope) {
  return scope.tx
    .select({
      userId: userTenants.userId,
      name: userTenants.name,
      email: users.email,
      pec: userTenants.pec,
      sdi: userTenants.sdi,
      vatCode: userTenants.vatCode,
      fiscalCode: userTenants.fiscalCode,
      isCompany: userTenants.isCompany,
      countryCode: userTenants.countryCode,
      city: userTenants.billingCity,
      paOfficeCode: userTenants.paOfficeCode,
      cig: userTenants.cig,
      street: userTenants.billingStreet,
      zip: userTenants.billingZip,
      province: provinces.abbreviation,
      municipality: municipalities.name,
    })
    .from(userTenants)
    .innerJoin(users, eq(users.id, userTenants.userId))
    .leftJoin(provinces, eq(provinces.id, userTenants.billingProvinceId))
    .leftJoin(municipalities, eq(municipalities.id, userTenants.billingMunicipalityId))
    .$dynamic();
}

type Seller = Awaited<ReturnType<typeof sellerOf>>;
type Customer = Awaited<ReturnType<typeof customerOf>>;

/**
 * What a party lacks, each gap once: its form field (the key the SPA focuses), its Italian name
 * ('Mancano: …') and the message stored for the payment ('Fattura non emessa: manca …').
 */
class Gaps<K extends string> {
  readonly fields: MissingField<K>[] = [];
  readonly missing: string[] = [];
  add(key: K, label: string, what: string) {
    this.fields.push({ key, label });
    this.missing.push(what);
  }
}

/** The seller block, or the missing fields (`fields` by the tenant form's keys, `missing` in Italian). */
export function sellerParty(s: Seller): {
  party?: InvoiceDocument['seller'];
  missing: string[];
  fields: MissingField<SellerFieldKey>[];
} {
  const m = invoiceMessages;
  const l = m.fieldLabels;
  const gaps = new Gaps<SellerFieldKey>();
  if (!s.legalName) gaps.add('legalName', l.legalName, m.sellerLegalName);
  if (!s.vatCode) gaps.add('vatCode', l.vatCode, m.sellerVat);
  if (!s.street) gaps.add('street', l.street, m.sellerStreet);
  if (!s.zip) gaps.add('zip', l.zip, m.sellerZip);
  if (!s.municipality) gaps.add('municipalityId', l.municipality, m.sellerMunicipality);
  const { missing, fields } = gaps;
  if (missing.length > 0 || !s.legalName || !s.vatCode || !s.street || !s.zip || !s.municipality)
    return { missing, fields };
  const vat = vatIdOf(s.vatCode);
  return {
    missing,
    fields,
    party: {
      vat,
      fiscalCode: s.fiscalCode,
      name: { company: s.legalName },
      taxRegime: s.taxRegime,
      pec: s.pec,
      address: {
        street: s.street,
        zip: s.zip,
        city: s.municipality,
        province: vat.country === 'IT' ? (s.province ?? null) : null,
        country: vat.country,
      },
    },
  };
}

/** IdCodice of a private person abroad, who has no VAT number. */
export const FOREIGN_CONSUMER_ID = '99999999999';

/**
 * The buyer block and the SdI routing: a PA office code → FPA12 to that code; an SDI code → that
 * code; a PEC → 0000000 with PECDestinatario; otherwise 0000000 (consumer, or a company that
 * reads its invoices in the cassetto fiscale). Abroad: XXXXXXX with the country's VAT id.
 */

export function buyerParty(c: Customer): {
  party?: InvoiceDocument['buyer'];
  routing?: Pick<InvoiceDocument, 'format' | 'recipientCode' | 'recipientPec'>;
  missing: string[];
  /** The missing fields by the user form's keys, in this order (the first is the one to focus). */
  fields: MissingField<CustomerFieldKey>[];
} {
  const m = invoiceMessages;
  const l = m.fieldLabels;
  const gaps = new Gaps<CustomerFieldKey>();
  const name = c.name?.trim();
  if (!name) gaps.add('name', l.name, m.buyerName);
  const country = (c.countryCode || 'IT').toUpperCase();
  const foreign = country !== 'IT';
  // A private person abroad has no VAT number: their country and the generic identifier
  // 99999999999 (AdE, Guida alla compilazione delle fatture elettroniche, cessionario estero).
  const foreignConsumer = foreign && !c.isCompany && !c.vatCode;
  if (foreign) {
    if (!c.vatCode && !foreignConsumer) gaps.add('vatCode', l.foreignVat, m.buyerForeignVat);
    if (!c.street) gaps.add('street', l.street, m.buyerStreet);
    if (!c.city) gaps.add('billingCity', l.city, m.buyerCity);
  } else {
    // Either identifies the customer; a company (or a public body) is asked its Partita IVA.
    if (!c.vatCode && !c.fiscalCode) {
      if (c.isCompany || c.paOfficeCode) gaps.add('vatCode', l.vatCode, m.buyerIdentity);
      else gaps.add('fiscalCode', l.fiscalCode, m.buyerIdentity);
    }
    if (!c.street) gaps.add('street', l.street, m.buyerStreet);
    if (!c.zip || !/^\d{5}$/.test(c.zip)) gaps.add('zip', l.zip, m.buyerZip);
    if (!c.municipality) gaps.add('municipality', l.municipality, m.buyerMunicipality);
  }
  const { missing, fields } = gaps;
  if (missing.length > 0 || !name) return { missing, fields };
  const party: InvoiceDocument['buyer'] = {
    vat: c.vatCode
      ? vatIdOf(c.vatCode, country)
      : foreignConsumer
        ? { country, code: FOREIGN_CONSUMER_ID }
        : null,
    fiscalCode: foreign ? null : (c.fiscalCode ?? null),
    name: personName(name, c.isCompany || Boolean(c.vatCode) || Boolean(c.paOfficeCode)),
    email: c.email,
    address: foreign
      ? { street: c.street!, zip: '00000', city: c.city!, province: null, country }
      : {
          street: c.street!,
          zip: c.zip!,
          city: c.municipality!,
          province: c.province ?? null,
          country: 'IT',
        },
  };
  const routing: Pick<InvoiceDocument, 'format' | 'recipientCode' | 'recipientPec'> = foreign
    ? { format: 'FPR12', recipientCode: 'XXXXXXX', recipientPec: null }
    : c.paOfficeCode
      ? { format: 'FPA12', recipientCode: c.paOfficeCode.toUpperCase(), recipientPec: null }
      : c.sdi && c.sdi !== '0000000'
        ? { format: 'FPR12', recipientCode: c.sdi.toUpperCase(), recipientPec: null }
        : { format: 'FPR12', recipientCode: '0000000', recipientPec: c.pec ?? null };
  return { party, routing, missing, fields };
}

/**
 * Every message sellerParty and buyerParty may store: the rest of a payment's messages are its
 * other reasons (amount, refused file, the plan's Natura).
 */
export const partyMessages: ReadonlySet<string> = new Set(
  (
    [
      'sellerLegalName',
      'sellerVat',
      'sellerStreet',
      'sellerZip',
      'sellerMunicipality',
      'buyerName',
      'buyerIdentity',
      'buyerForeignVat',
      'buyerStreet',
      'buyerZip',
      'buyerMunicipality',
      'buyerCity',
    ] as const
  ).map((key) => invoiceMessages.missing(invoiceMessages[key])),
);

/** Next number of the tenant's year: the counter row is created or incremented and stays locked. */
async function nextNumber(tx: UnitOfWork['tx'], tenantId: number, year: number): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ tenantId, year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [invoiceCounters.tenantId, invoiceCounters.year],
      set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
    })
    .returning({ n: invoiceCounters.lastNumber });
  if (!row) throw new Error('invoice counter returned no row');
  return row.n;
}

class FileRefused extends Error {
  constructor(readonly errors: string[]) {
    super('FatturaPA refused');
  }
}

async function recordIssue(w: UnitOfWork, paymentId: number, userId: number, messages: string[]) {
  await w.tx
    .insert(invoiceIssues)
    .values({ tenantId: w.tenantId, paymentId, userId, messages, at: w.now })
    .onConflictDoUpdate({
      target: [invoiceIssues.tenantId, invoiceIssues.paymentId],
      set: { messages, at: w.now },
    });
}

/**
 * Numbers, builds, checks (official XSD, then the SdI's arithmetic) and stores one document in a
 * savepoint: a refused file rolls the savepoint back, so its number is not used (no gap).
 */
async function storeDocument(
  w: UnitOfWork,
  draft: Omit<InvoiceDocument, 'number' | 'date' | 'progressive' | 'fileName'>,
  row: {
    paymentId: number;
    userId: number;
    customerName: string;
    relatedInvoiceId: number | null;
    reason: string | null;
  },
  check: FileCheck = fatturaErrors,
): Promise<{ id: number; number: string }> {
  const issueDate = romeDate(w.now);
  const year = Number(issueDate.slice(0, 4));
  return w.tx
    .transaction(async (sp) => {
      const n = await nextNumber(sp, w.tenantId, year);
      const number = `${year}/${String(n).padStart(6, '0')}`;
      const progressive = progressiveOf(year, n);
      const fileName = `${draft.transmitter.country}${draft.transmitter.code}_${progressive}.xml`;
      const doc: InvoiceDocument = { ...draft, number, date: issueDate, progressive, fileName };
      const xml = buildFatturaXml(doc);
      const errors = await check(xml);
      if (errors.length > 0) throw new FileRefused(errors);
      const [inserted] = await sp
        .insert(invoices)
        .values({
          tenantId: w.tenantId,
          documentType: doc.documentType,
          year,
          number: n,
          numberText: number,
          issueDate,
          paymentId: row.paymentId,
          userId: row.userId,
          relatedInvoiceId: row.relatedInvoiceId,
          customerName: row.customerName,
          taxableCents: doc.taxableCents,
          vatCents: doc.taxCents,
          totalCents: doc.totalCents,
          format: doc.format,
          recipientCode: doc.recipientCode,
          recipientPec: doc.recipientPec,
          paymentMethod: doc.payment.method,
          fileName,
          xml,
          document: doc,
          status: 'issued',
          reason: row.reason,
          createdAt: w.now,
          statusAt: w.now,
        })
        .returning({ id: invoices.id });
      if (!inserted) throw new Error('invoice insert returned no row');
      return { id: inserted.id, number };
    })
    .then(async (stored) => {
      await w.publish('invoice.issued', {
        invoiceId: stored.id,
        paymentId: row.paymentId,
        kind: documentKind(draft.documentType),
      });
      return stored;
    });
}

const documentKind = (type: string): 'invoice' | 'creditNote' => (type === 'TD04' ? 'creditNote' : 'invoice');

/**
 * What a file must pass before it is stored: by default the official XSD and the SdI's arithmetic,
 * file by file. A caller issuing many at once in one transaction may collect the files and check
 * them together before it commits (issueCheckedTogether).
 */
export type FileCheck = (xml: string) => Promise<string[]>;

/**
 * Issues the invoice of a paid payment, in the caller's unit of work. Idempotent: a payment that
 * already has its invoice answers it ('exists'). Missing data → 'blocked', recorded in
 * invoice_issues with Italian messages naming the fields; the caller's payment still commits.
 */
export async function issueInvoiceForPayment(
  w: UnitOfWork,
  paymentId: number,
  check?: FileCheck,
): Promise<IssueOutcome> {
  // The payment's waiting row (if any) is locked before the year's counter (storeDocument), as
  // retryBlockedPayments does: a retry and a save retrying the same payment never deadlock.
  await w.tx
    .select({ id: invoiceIssues.id })
    .from(invoiceIssues)
    .where(and(eq(invoiceIssues.tenantId, w.tenantId), eq(invoiceIssues.paymentId, paymentId)))
    .for('update');
  const [existing] = await w.tx
    .select({ id: invoices.id, number: invoices.numberText })
    .from(invoices)
    .where(
      and(
        eq(invoices.tenantId, w.tenantId),
        eq(invoices.paymentId, paymentId),
        eq(invoices.documentType, 'TD01'),
      ),
    );
  if (existing) {
    // Invoiced already: nothing of it waits any more.
    await w.tx
      .delete(invoiceIssues)
      .where(and(eq(invoiceIssues.tenantId, w.tenantId), eq(invoiceIssues.paymentId, paymentId)));
    return { kind: 'exists', invoiceId: existing.id, number: existing.number };
  }

  const [p] = await w.tx
    .select({
      id: payments.id,
      subscriptionId: payments.subscriptionId,
      amountDueCents: payments.amountDueCents,
      periodStart: payments.periodStart,
      periodEnd: payments.periodEnd,
      method: payments.method,
      paidAt: payments.paidAt,
      causale: payments.causale,
      couponRedemptionId: payments.couponRedemptionId,
      planChangeId: payments.planChangeId,
      oneOffChargeId: payments.oneOffChargeId,
      userId: subscriptions.userId,
      cost: subscriptions.costBeforeVatCents,
      vat: subscriptions.vatHundredths,
      planName: plans.name,
      natura: plans.natura,
    })
    .from(payments)
    .innerJoin(
      subscriptions,
      and(eq(subscriptions.id, payments.subscriptionId), eq(subscriptions.tenantId, payments.tenantId)),
    )
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, paymentId)));
  if (!p) throw new HttpError(404, serverMessages.notFound);
  if (!p.paidAt) throw new HttpError(409, invoiceMessages.notPaid);

  const seller = sellerParty(await sellerOf(w));
  const customer = await customerOf(w, p.userId);
  const buyer = buyerParty(customer);
  const missing = [...seller.missing, ...buyer.missing];
  const natura: Natura | null = p.vat === 0 ? (isNatura(p.natura) ? p.natura : null) : null;
  const from = romeDate(p.periodStart);
  const to = dayBefore(romeDate(p.periodEnd));
  // The payment of a plan change's new days (issue 30, docs/fiscal-rules.md 'Cambio di piano'):
  // one line for those days at the proration's charge; the credit note's net is set off.
  const [change] =
    p.planChangeId === null
      ? []
      : await w.tx
          .select({
            chargeCents: planChanges.chargeCents,
            offsetCents: planChanges.offsetCents,
            // A change between recurrences charges a whole new period (its ordinary line).
            newPeriod: sql<boolean>`${fromPlan.recurrenceType} <> ${plans.recurrenceType}`,
          })
          .from(planChanges)
          .innerJoin(
            fromPlan,
            and(eq(fromPlan.tenantId, planChanges.tenantId), eq(fromPlan.id, planChanges.fromPlanId)),
          )
          .innerJoin(plans, and(eq(plans.tenantId, planChanges.tenantId), eq(plans.id, planChanges.toPlanId)))
          .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, p.planChangeId)));
  // The one computation (docs/fiscal-rules.md): the VAT the two profiles decide, cassa, bollo,
  // ritenuta, split payment; its net to pay is what the payment asked.
  // A one-off charge collected on its own (issue 30): its lines, no period.
  const [oneOff] =
    p.oneOffChargeId === null
      ? []
      : await w.tx
          .select({
            description: oneOffCharges.description,
            quantity: oneOffCharges.quantity,
            unitPriceCents: oneOffCharges.unitPriceCents,
          })
          .from(oneOffCharges)
          .where(and(eq(oneOffCharges.tenantId, w.tenantId), eq(oneOffCharges.id, p.oneOffChargeId)));
  const periodCharge = change
    ? {
        description: (change.newPeriod ? subscriptionPeriodLine : changePlanMessages.chargeLine)(
          p.planName,
          italianDate(from),
          italianDate(to),
        ),
        costCents: change.chargeCents ?? 0,
        vat: p.vat,
        natura,
      }
    : {
        description: subscriptionPeriodLine(p.planName, italianDate(from), italianDate(to)),
        costCents: p.cost,
        vat: p.vat,
        natura,
        // A coupon's period (issue 30): ScontoMaggiorazione SC on the line, the net to pay discounted.
        discount: await discountOfPayment(w, p.couponRedemptionId),
      };
  let document = oneOff
    ? await oneOffDocument(w.tx, w.tenantId, p.userId, { ...oneOff, vat: p.vat, natura })
    : await subscriptionDocument(w.tx, w.tenantId, p.userId, periodCharge);
  // A plan change's residual credit set off on this period's payment (issue 30; docs/fiscal-rules.md
  // 'Credito residuo'): the document stays the whole period's; the payment asked that much less.
  // Read only when the payment asks other than the period's document (so this release's seed still
  // runs on the previous release's database, as with plan_changes). A one-off 'Subito' charge's
  // payment sets the credit off too (its document stays the charge's whole TD01).
  // A plan change's proration payment sets off an earlier change's credit too (issue 30: Stripe's
  // balance takes it off the proration invoice): read when it asks less than its document less the
  // change's own credit note.
  const creditUsed =
    document.netToPayCents - (change?.offsetCents ?? 0) !== p.amountDueCents
      ? await creditUsedBy(w, p.id)
      : 0;
  // One-off charges collected with this period's payment (issue 30): their lines beside the
  // period's, in the same document. Each adds a positive amount, so they are looked for only when
  // the payment asks other than the period alone (less its set-off credit).
  let extras: ExtraLine[] = [];
  if (!oneOff && !change && document.netToPayCents !== p.amountDueCents + creditUsed) {
    extras = await w.tx
      .select({
        description: oneOffCharges.description,
        quantity: oneOffCharges.quantity,
        unitPriceCents: oneOffCharges.unitPriceCents,
      })
      .from(oneOffCharges)
      .where(
        and(
          eq(oneOffCharges.tenantId, w.tenantId),
          eq(oneOffCharges.paymentId, p.id),
          eq(oneOffCharges.collect, 'nextPayment'),
          ne(oneOffCharges.status, 'deleted'),
        ),
      )
      .orderBy(asc(oneOffCharges.id));
    if (extras.length > 0)
      document = await subscriptionDocument(w.tx, w.tenantId, p.userId, { ...periodCharge, extras });
  }
  if (document.treatment.vat === 0 && !document.treatment.natura) missing.push(invoiceMessages.planNatura);
  const messages = missing.map(invoiceMessages.missing);
  const agreed = document.netToPayCents - (change?.offsetCents ?? 0) - creditUsed;
  if (agreed !== p.amountDueCents)
    messages.push(
      invoiceMessages.amountMismatch(eur.format(fromCents(p.amountDueCents)), eur.format(fromCents(agreed))),
    );
  if (messages.length > 0 || !seller.party || !buyer.party || !buyer.routing) {
    await recordIssue(w, paymentId, p.userId, messages);
    return { kind: 'blocked', messages };
  }

  const [sellerIban] = await w.tx
    .select({ iban: tenants.iban })
    .from(tenants)
    .where(eq(tenants.id, w.tenantId));
  const bankTransfer = p.method === 'bankTransfer' || p.method === null;
  const draft: Omit<InvoiceDocument, 'number' | 'date' | 'progressive' | 'fileName'> = {
    documentType: 'TD01',
    ...buyer.routing,
    transmitter: seller.party.vat!,
    seller: seller.party,
    buyer: buyer.party,
    // The period's dates on the period's line only; a one-off charge's lines have none.
    ...fiscalParts(
      document,
      oneOff
        ? { start: null, end: null }
        : { start: from, end: to, ...(extras.length > 0 ? { chargeLines: 1 } : {}) },
    ),
    // A public body's order: the payment's reference and the CIG it gave (FPA12).
    order:
      buyer.routing.format === 'FPA12' && customer.cig
        ? { id: p.causale ?? String(p.id), cig: customer.cig }
        : null,
    payment: {
      method: bankTransfer ? 'MP05' : 'MP08',
      amountCents: agreed,
      iban: bankTransfer ? (sellerIban?.iban ?? null) : null,
      paidOn: romeDate(p.paidAt),
    },
    related: null,
    causale:
      [
        ...(bankTransfer && !(creditUsed > 0 && agreed === 0)
          ? [`Pagamento ricevuto con causale ${p.causale}`]
          : []),
        // With a ledger set-off on a proration, its own credit note's offset is documented too,
        // so the Causale's set-offs add up to what ImportoPagamento leaves out.
        ...(creditUsed > 0 && change && (change.offsetCents ?? 0) > 0 && p.planChangeId !== null
          ? await changeOffsetCausali(w, p.planChangeId, change.offsetCents ?? 0)
          : []),
        ...(creditUsed > 0 ? await setOffCausali(w, p.subscriptionId, p.id) : []),
      ].join('\n') || null,
  };
  try {
    const stored = await storeDocument(
      w,
      draft,
      {
        paymentId,
        userId: p.userId,
        customerName: customer.name ?? customer.email,
        relatedInvoiceId: null,
        reason: null,
      },
      check,
    );
    await w.tx
      .delete(invoiceIssues)
      .where(and(eq(invoiceIssues.tenantId, w.tenantId), eq(invoiceIssues.paymentId, paymentId)));
    return { kind: 'issued', invoiceId: stored.id, number: stored.number };
  } catch (error) {
    if (!(error instanceof FileRefused)) throw error;
    const refused = [invoiceMessages.fileRefused(error.errors.join(' '))];
    await recordIssue(w, paymentId, p.userId, refused);
    return { kind: 'blocked', messages: refused };
  }
}

/** What retrying a tenant's (or one customer's) waiting payments did, oldest payment first. */
export interface RetryOutcome {
  issued: { paymentId: number; invoiceId: number; number: string }[];
  /** Still waiting, with the reasons of this attempt (also stored in invoice_issues). */
  blocked: { paymentId: number; messages: string[] }[];
  /** Tolerant retries only: an attempt that failed unexpectedly, rolled back (its issue row as it was). */
  failed: { paymentId: number; error: string }[];
}

/**
 * Issues many payments' invoices, each in its unit of work (in order: their numbers follow it),
 * collecting the files and checking them all in one validator run (fatturaErrorsMany: its start and
 * the schema's parse cost about a tenth of a second per call). Answers each payment's outcome and
 * the files refused; the caller's transaction decides what a refusal undoes (the demo's seed and a
 * retry's savepoint roll back).
 */
export async function issueCheckedTogether(
  items: readonly { unit: UnitOfWork; paymentId: number }[],
): Promise<{
  outcomes: [paymentId: number, outcome: IssueOutcome][];
  refused: { paymentId: number; errors: string[] }[];
}> {
  const files: { paymentId: number; xml: string }[] = [];
  const outcomes: [number, IssueOutcome][] = [];
  for (const { unit, paymentId } of items) {
    const collect: FileCheck = (xml) => {
      files.push({ paymentId, xml });
      return Promise.resolve([]);
    };
    outcomes.push([paymentId, await issueInvoiceForPayment(unit, paymentId, collect)]);
  }
  const verdicts = await fatturaErrorsMany(files.map((f) => f.xml));
  const refused = files.flatMap((f, i) => {
    const errors = verdicts[i] ?? [];
    return errors.length > 0 ? [{ paymentId: f.paymentId, errors }] : [];
  });
  return { outcomes, refused };
}

class BatchRefused extends Error {
  constructor() {
    super('a file of the batch was refused');
  }
}

/**
 * Issues what it can of the payments waiting for an invoice (invoice_issues) of the tenant, or of
 * one customer (`userId`), oldest payment first so the numbers follow the payments; each one goes
 * through issueInvoiceForPayment (idempotent: never a second invoice; a payment still lacking
 * data keeps its row with this attempt's messages). The waiting rows are locked first, so two
 * retries of the same payments run one after the other.
 *
 * Several payments are issued with their files checked together (one validator run instead of
 * half a second each); if any file is refused, that batch is rolled back whole (numbers
 * included) and each payment is tried again alone, so a refused file takes no number.
 *
 * `tolerant` (a retry another write triggers: a customer's or the seller's data saved): the whole
 * retry runs in a savepoint and an unexpected failure is rolled back and reported, never thrown,
 * so the write that triggered it still commits.
 */
export async function retryBlockedPayments(
  w: UnitOfWork,
  options: { userId?: number; tolerant?: boolean } = {},
): Promise<RetryOutcome> {
  if (!options.tolerant) return retryWaiting(w, options.userId, false);
  try {
    return await w.tx.transaction((sp) => retryWaiting({ ...w, tx: sp }, options.userId, true));
  } catch (error) {
    return { issued: [], blocked: [], failed: [{ paymentId: 0, error: errorText(error) }] };
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function retryWaiting(w: UnitOfWork, userId: number | undefined, tolerant: boolean) {
  const waiting = await w.tx
    .select({ paymentId: invoiceIssues.paymentId })
    .from(invoiceIssues)
    .innerJoin(
      payments,
      and(eq(payments.id, invoiceIssues.paymentId), eq(payments.tenantId, invoiceIssues.tenantId)),
    )
    .where(
      and(
        eq(invoiceIssues.tenantId, w.tenantId),
        userId === undefined ? undefined : eq(invoiceIssues.userId, userId),
      ),
    )
    .orderBy(asc(payments.paidAt), asc(payments.id))
    .for('update', { of: invoiceIssues });
  const ids = waiting.map((r) => r.paymentId);
  const outcome: RetryOutcome = { issued: [], blocked: [], failed: [] };
  if (ids.length === 0) return outcome;

  const record = (paymentId: number, result: IssueOutcome) => {
    if (result.kind === 'blocked') outcome.blocked.push({ paymentId, messages: result.messages });
    else outcome.issued.push({ paymentId, invoiceId: result.invoiceId, number: result.number });
  };

  if (ids.length > 1) {
    const batch = await w.tx
      .transaction(async (sp) => {
        const unit = { ...w, tx: sp };
        const { outcomes, refused } = await issueCheckedTogether(
          ids.map((paymentId) => ({ unit, paymentId })),
        );
        if (refused.length > 0) throw new BatchRefused();
        return outcomes;
      })
      .catch((error: unknown) => {
        if (error instanceof BatchRefused || tolerant) return null;
        throw error;
      });
    if (batch) {
      for (const [id, result] of batch) record(id, result);
      return outcome;
    }
  }

  for (const id of ids) {
    try {
      record(id, await w.tx.transaction((sp) => issueInvoiceForPayment({ ...w, tx: sp }, id)));
    } catch (error) {
      if (!tolerant) throw error;
      outcome.failed.push({ paymentId: id, error: errorText(error) });
    }
  }
  return outcome;
}

/**
 * A credit note (TD04) reversing an invoice in full, for a refunded or disputed payment: same
 * buyer, routing and lines, `DatiFattureCollegate` naming the invoice, the next number of the
 * year. One per invoice. Answers the credit note's id and number.
 */
export async function issueCreditNote(
  w: UnitOfWork,
  invoiceId: number,
  reason: string,
): Promise<{ id: number; number: string }> {
  const [inv] = await w.tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.tenantId, w.tenantId), eq(invoices.id, invoiceId)))
    .for('update');
  if (!inv) throw new HttpError(404, serverMessages.notFound);
  if (inv.documentType !== 'TD01') throw new HttpError(409, invoiceMessages.creditNoteOfCreditNote);
  const [credited] = await w.tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.tenantId, w.tenantId), eq(invoices.relatedInvoiceId, inv.id)));
  if (credited) throw new HttpError(409, invoiceMessages.alreadyCredited);
  const original = inv.document as InvoiceDocument;
  const { number: _n, date: _d, progressive: _p, fileName: _f, ...rest } = original;
  try {
    return await storeDocument(
      w,
      {
        ...rest,
        documentType: 'TD04',
        related: { number: original.number, date: original.date },
        causale: `Storno della fattura ${original.number} del ${italianDate(original.date)}: ${reason}`,
      },
      {
        paymentId: inv.paymentId,
        userId: inv.userId,
        customerName: inv.customerName,
        relatedInvoiceId: inv.id,
        reason,
      },
    );
  } catch (error) {
    if (error instanceof FileRefused)
      throw new HttpError(409, invoiceMessages.fileRefused(error.errors.join(' ')));
    throw error;
  }
}

/**
 * A provider reported a refund or a reversal (chargeback) of the sale `saleId`: the credit note of
 * its payment's invoice, in the webhook's unit of work. A full refund only: a partial one is left
 * to a person (the detail says so), as is a payment whose invoice is missing or already credited.
 */
export async function creditNoteForRefund(
  w: UnitOfWork,
  input: { saleId: string; refundedCents: number | null; what: string },
): Promise<{ outcome: 'applied' | 'unchanged' | 'ignored'; detail: string }> {
  const [p] = await w.tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.providerPaymentId, input.saleId)));
  if (!p)
    return { outcome: 'ignored', detail: `vendita ${input.saleId} sconosciuta: nessuna nota di credito` };
  const [inv] = await w.tx
    .select({
      id: invoices.id,
      number: invoices.numberText,
      totalCents: invoices.totalCents,
      document: invoices.document,
    })
    .from(invoices)
    .where(
      and(eq(invoices.tenantId, w.tenantId), eq(invoices.paymentId, p.id), eq(invoices.documentType, 'TD01')),
    );
  if (!inv) return { outcome: 'ignored', detail: `pagamento ${p.id} senza fattura: nessuna nota di credito` };
  const [credited] = await w.tx
    .select({ number: invoices.numberText })
    .from(invoices)
    .where(and(eq(invoices.tenantId, w.tenantId), eq(invoices.relatedInvoiceId, inv.id)));
  if (credited)
    return { outcome: 'unchanged', detail: `fattura ${inv.number} già stornata (${credited.number})` };
  // What the customer paid: the net to pay (the total less any ritenuta or split-payment VAT).
  const paidCents = (inv.document as InvoiceDocument | null)?.payment?.amountCents ?? inv.totalCents;
  if (input.refundedCents !== null && input.refundedCents < paidCents)
    return {
      outcome: 'ignored',
      detail: `rimborso parziale (${eur.format(fromCents(input.refundedCents))} su ${eur.format(fromCents(paidCents))}) della fattura ${inv.number}: nota di credito da emettere a mano`,
    };
  try {
    const note = await issueCreditNote(w, inv.id, input.what);
    return { outcome: 'applied', detail: `nota di credito ${note.number} della fattura ${inv.number}` };
  } catch (error) {
    if (error instanceof HttpError) return { outcome: 'ignored', detail: error.message };
    throw error;
  }
}

/**
 * The partial credit note (TD04) of a plan change (issue 30, docs/fiscal-rules.md 'Cambio di
 * piano'), when billing tells that the change took effect ('subscription.planChanged'): a nota di
 * variazione in diminuzione (art. 26 c. 2-3 DPR 633/72) of the invoice of the period's payment,
 * `DatiFattureCollegate` naming it, one line for the old plan's unused days (from the change day
 * to the period's last day) at the change's credit, under that invoice's VAT rate and Natura; its
 * figures from the contract's `creditNoteDocument`, as the preview and the amount asked. Nothing
 * when nothing is credited or the note exists. A missing invoice, or a file the XSD or the SdI
 * arithmetic refuses, is a 409: the change rolls back with it.
 */
export async function creditNoteForPlanChange(
  w: UnitOfWork,
  planChangeId: number,
  /** The file's check; by default the XSD and the SdI's arithmetic (the demo seed collects it). */
  check?: FileCheck,
): Promise<{ outcome: 'applied' | 'unchanged' | 'ignored'; detail: string | null }> {
  const [change] = await w.tx
    .select({
      id: planChanges.id,
      creditCents: planChanges.creditCents,
      creditNoteId: planChanges.creditNoteId,
      creditedPaymentId: planChanges.creditedPaymentId,
      effectiveAt: planChanges.effectiveAt,
      fromPlanName: plans.name,
    })
    .from(planChanges)
    .innerJoin(plans, and(eq(plans.id, planChanges.fromPlanId), eq(plans.tenantId, planChanges.tenantId)))
    .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, planChangeId)))
    .for('update', { of: planChanges });
  if (!change || !change.creditCents || change.creditedPaymentId === null)
    return { outcome: 'ignored', detail: 'nessuno storno' };
  if (change.creditNoteId !== null) return { outcome: 'unchanged', detail: 'nota di credito già emessa' };
  const [inv] = await w.tx
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.tenantId, w.tenantId),
        eq(invoices.paymentId, change.creditedPaymentId),
        eq(invoices.documentType, 'TD01'),
      ),
    );
  const [paid] = await w.tx
    .select({ periodEnd: payments.periodEnd })
    .from(payments)
    .where(and(eq(payments.tenantId, w.tenantId), eq(payments.id, change.creditedPaymentId)));
  if (!inv || !paid) throw new HttpError(409, changePlanMessages.invoiceMissing);
  const original = inv.document as InvoiceDocument;
  const line = original.lines.find((l) => (l.kind ?? 'charge') === 'charge');
  const period = { start: romeDate(change.effectiveAt), end: dayBefore(romeDate(paid.periodEnd)) };
  const fd = creditNoteDocument({
    seller: await sellerProfileOf(w.tx, w.tenantId),
    customer: await customerProfileOf(w.tx, w.tenantId, inv.userId),
    plan: {
      name: change.fromPlanName,
      vat: line?.vat ?? 0,
      natura: line?.natura ?? null,
      legalReference:
        original.summaries.find((s) => s.vat === line?.vat && s.natura === line?.natura)?.legalReference ??
        null,
    },
    creditCents: change.creditCents,
    period,
  });
  const {
    number: _n,
    date: _d,
    progressive: _p,
    fileName: _f,
    lines: _l,
    summaries: _s,
    withholding: _wh,
    stampDuty: _sd,
    pensionFund: _pf,
    ...rest
  } = original;
  const reason = `cambio di piano da «${change.fromPlanName}»`;
  try {
    const note = await storeDocument(
      w,
      {
        ...rest,
        ...fiscalParts(fd, period),
        documentType: 'TD04',
        payment: { method: original.payment.method, amountCents: fd.netToPayCents, iban: null, paidOn: null },
        related: { number: original.number, date: original.date },
        causale: `Storno parziale della fattura ${original.number} del ${italianDate(original.date)}: ${reason}`,
      },
      {
        paymentId: change.creditedPaymentId,
        userId: inv.userId,
        customerName: inv.customerName,
        relatedInvoiceId: inv.id,
        reason,
      },
      check,
    );
    await w.tx
      .update(planChanges)
      .set({ creditNoteId: note.id })
      .where(and(eq(planChanges.tenantId, w.tenantId), eq(planChanges.id, change.id)));
    return { outcome: 'applied', detail: `nota di credito ${note.number} della fattura ${original.number}` };
  } catch (error) {
    if (error instanceof FileRefused)
      throw new HttpError(409, invoiceMessages.fileRefused(error.errors.join(' ')));
    throw error;
  }
}
