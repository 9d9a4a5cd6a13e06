/**
 * The seller's and the customer's fiscal profiles (api-contract 'Fiscal profiles') as the one
 * computation reads them (contract/invoice/fiscal-document.ts), from the tenant's row and the
 * tenant's record of its customer. Billing (the amount due) and invoicing (the document) both ask
 * here, so the amount a customer is asked and the invoice's net to pay are the same computation.
 */
import { and, eq } from 'drizzle-orm';
import {
  computeDocument,
  isEuCountry,
  type LineDiscount,
  pensionFundTypes,
  withholdingTypes,
  type CustomerProfile,
  type FiscalDocument,
  type PensionFundType,
  type SellerProfile,
  type WithholdingType,
} from '../../contract/invoice/fiscal-document';
import { isNatura, type Natura } from '../../contract/invoice/fatturapa';
import { toCents, toPercentHundredths, type Cents, type PercentHundredths } from '../../contract/money';
import { defaultWithholdingAgent } from '../../contract/schemas/user';
import { taxRegimes, type TaxRegime } from '../../contract/validation/italian';
import type { Database } from './client';
import { tenants, userTenants } from './schema';

type Reader = Pick<Database, 'select'>;

const isTaxRegime = (v: string): v is TaxRegime => (taxRegimes as readonly string[]).includes(v);
const isFund = (v: string | null): v is PensionFundType =>
  v !== null && (pensionFundTypes as readonly string[]).includes(v);
const isWithholding = (v: string | null): v is WithholdingType =>
  v !== null && (withholdingTypes as readonly string[]).includes(v);

/** The seller's profile from the tenant's columns (what sellerProfileOf reads; the demo seed too). */
export function sellerProfileFrom(
  row:
    | {
        taxRegime: string;
        fundType: string | null;
        fundRate: number | null;
        withholdingTax: string | null;
        stampDutyToCustomer: boolean;
        oss?: boolean;
      }
    | undefined,
): SellerProfile {
  return {
    taxRegime: row && isTaxRegime(row.taxRegime) ? row.taxRegime : 'RF01',
    pensionFund:
      row && isFund(row.fundType) && row.fundRate !== null
        ? { type: row.fundType, rate: row.fundRate }
        : null,
    withholdingTax: row && isWithholding(row.withholdingTax) ? row.withholdingTax : null,
    stampDutyToCustomer: row?.stampDutyToCustomer ?? false,
    oss: row?.oss ?? false,
  };
}

export async function sellerProfileOf(db: Reader, tenantId: number): Promise<SellerProfile> {
  const [row] = await db
    .select({
      taxRegime: tenants.taxRegime,
      fundType: tenants.pensionFundType,
      fundRate: tenants.pensionFundRate,
      withholdingTax: tenants.withholdingTax,
      stampDutyToCustomer: tenants.stampDutyToCustomer,
      oss: tenants.ossRegistered,
    })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return sellerProfileFrom(row);
}

/** The customer's profile from the tenant's record of them (what customerProfileOf reads; the demo seed too). */
export function customerProfileFrom(
  row:
    | {
        countryCode: string | null;
        isCompany: boolean;
        vatCode: string | null;
        publicAdministration: boolean;
        withholdingAgent: boolean | null;
      }
    | undefined,
): CustomerProfile {
  const countryCode = (row?.countryCode ?? 'IT').toUpperCase();
  // A customer abroad with a VAT number is a business (reverse charge) even if not flagged.
  const isCompany =
    Boolean(row?.isCompany) || (countryCode !== 'IT' && isEuCountry(countryCode) && Boolean(row?.vatCode));
  const publicAdministration = row?.publicAdministration ?? false;
  return {
    countryCode,
    isCompany,
    publicAdministration,
    withholdingAgent:
      row?.withholdingAgent ?? defaultWithholdingAgent({ countryCode, isCompany, publicAdministration }),
  };
}

export async function customerProfileOf(
  db: Reader,
  tenantId: number,
  userId: number,
): Promise<CustomerProfile> {
  const [row] = await db
    .select({
      countryCode: userTenants.countryCode,
      isCompany: userTenants.isCompany,
      vatCode: userTenants.vatCode,
      publicAdministration: userTenants.publicAdministration,
      withholdingAgent: userTenants.withholdingAgent,
    })
    .from(userTenants)
    .where(and(eq(userTenants.tenantId, tenantId), eq(userTenants.userId, userId)));
  return customerProfileFrom(row);
}

/** One charge of a subscription's period: its cost, the agreed VAT and its Natura when 0 %. */
export interface SubscriptionCharge {
  description: string;
  costCents: Cents;
  vat: PercentHundredths;
  natura: Natura | null;
  /** A coupon's discount on the period (issue 30), or none. */
  discount?: LineDiscount | null;
  /**
   * One-off charges collected with this period's payment ('Con il prossimo pagamento', issue 30):
   * their lines beside the period's, in the same document (one VAT, cassa, ritenuta, bollo).
   */
  extras?: readonly ExtraLine[];
}

/** A one-off charge's line on a period's document. */
export interface ExtraLine {
  description: string;
  quantity: number;
  unitPriceCents: Cents;
}

/** The document of one period from the two profiles: one charge at the agreed cost and VAT. */
export function periodDocument(
  seller: SellerProfile,
  customer: CustomerProfile,
  charge: SubscriptionCharge,
): FiscalDocument {
  return computeDocument({
    seller,
    customer,
    charges: [
      {
        description: charge.description,
        quantity: 1,
        unitPriceCents: charge.costCents,
        discount: charge.discount ?? null,
      },
      ...(charge.extras ?? []).map((e) => ({
        description: e.description,
        quantity: e.quantity,
        unitPriceCents: e.unitPriceCents,
      })),
    ],
    plan: { vat: charge.vat, natura: charge.natura },
  });
}

/**
 * Who buys from a public price (the plan widget, a provider's plan): a private person in Italy,
 * who withholds nothing and is no public body. A business that withholds pays less (its own
 * quote); a provider plan fixed at the list price then cannot charge it.
 */
export const LIST_PRICE_BUYER: CustomerProfile = {
  countryCode: 'IT',
  isCompany: false,
  withholdingAgent: false,
  publicAdministration: false,
};

/**
 * A plan's list price for one period, in cents: the net to pay of its document for that buyer
 * under the tenant's profile (cassa or rivalsa, VAT, bollo charged), not just cost plus VAT.
 */
export async function listPriceOf(
  db: Reader,
  tenantId: number,
  plan: { cost: string | number; vat: string | number; natura?: string | null },
): Promise<Cents> {
  const seller = await sellerProfileOf(db, tenantId);
  return periodDocument(seller, LIST_PRICE_BUYER, {
    description: 'Piano',
    costCents: toCents(plan.cost),
    vat: toPercentHundredths(plan.vat),
    natura: isNatura(plan.natura) ? plan.natura : null,
  }).netToPayCents;
}

/** The document one period of a subscription produces: one charge at the agreed cost and VAT. */
export async function subscriptionDocument(
  db: Reader,
  tenantId: number,
  userId: number,
  charge: SubscriptionCharge,
): Promise<FiscalDocument> {
  const [seller, customer] = await Promise.all([
    sellerProfileOf(db, tenantId),
    customerProfileOf(db, tenantId, userId),
  ]);
  return periodDocument(seller, customer, charge);
}

/**
 * The document of a one-off charge ('Addebito una tantum', issue 30): its lines (description,
 * quantity, unit price) at the subscription's VAT treatment, through the one computation (VAT or
 * natura, cassa, ritenuta, bollo as the two profiles decide). Its net to pay is what its payment asks.
 */
export async function oneOffDocument(
  db: Reader,
  tenantId: number,
  userId: number,
  charge: {
    description: string;
    quantity: number;
    unitPriceCents: Cents;
    vat: PercentHundredths;
    natura: Natura | null;
  },
): Promise<FiscalDocument> {
  const [seller, customer] = await Promise.all([
    sellerProfileOf(db, tenantId),
    customerProfileOf(db, tenantId, userId),
  ]);
  return computeDocument({
    seller,
    customer,
    charges: [
      { description: charge.description, quantity: charge.quantity, unitPriceCents: charge.unitPriceCents },
    ],
    plan: { vat: charge.vat, natura: charge.natura },
  });
}
