/**
 * 'I miei dati' (issue 28; GDPR art. 15 right of access, art. 20 portability): everything Rinnova
 * holds about the signed-in person, as `GET api/user/me/data?format=json` answers it (the PDF of
 * `format=pdf` shows the same content for a person to read).
 *
 * The structure is stable: `version` changes only when a field is removed or changes meaning
 * (fields may be added). Conventions: dates and times are ISO 8601 strings in UTC
 * (`2026-03-10T09:00:00.000Z`) or calendar days (`2026-03-10`, the invoices' dates); amounts are
 * euros as numbers with at most two decimals, with `currency` 'EUR'; VAT in percent (22 → 22 %).
 * Codes are English identifiers (`status`: 'Active'), each with its Italian label beside it.
 *
 * Never included: password hashes, two-factor secrets and recovery codes, the hashes of sign-in,
 * reset, payment and confirmation links, API keys and webhook signing secrets, another person's
 * data (a staff member who changed a subscription is named by kind only: 'user', 'provider', …).
 */
import type { RoleName } from '../enums';
import type { CollectionEventKind, CollectionStatus } from './collection';

export const MY_DATA_FORMAT = 'rinnova-i-miei-dati' as const;
export const MY_DATA_VERSION = 1 as const;
export const myDataFormats = ['json', 'pdf'] as const;
export type MyDataFileFormat = (typeof myDataFormats)[number];

/** `rinnova-i-miei-dati-2026-03-10.json`: the day it was generated (Europe/Rome). */
export function myDataFileName(day: string, format: MyDataFileFormat): string {
  return `rinnova-i-miei-dati-${day}.${format}`;
}

export interface MyDataExport {
  format: typeof MY_DATA_FORMAT;
  version: typeof MY_DATA_VERSION;
  generatedAt: string;
  person: MyDataPerson;
  /** Sign-in history and security settings of the account (control database). */
  signIns: MyDataSignIns;
  /** Messages sent through the landing page's contact form from the person's e-mail address. */
  contactMessages: { createdAt: string; message: string; optIn: boolean; locale: string | null }[];
  /** E-mails Rinnova itself sent to the person's address (sign-in, password), with no tenant; no bodies. */
  emails: MyDataEmail[];
  /** One section per tenant (seller) the person belongs to, read from that tenant's own database. */
  tenants: MyDataTenant[];
}

export interface MyDataPerson {
  id: number;
  email: string;
  /** Display name of the account (each tenant keeps its own, in `tenants[].customer.name`). */
  name: string | null;
  role: RoleName;
  /** False: the account is blocked everywhere. */
  active: boolean;
  /** Whether a password is set (never the password or its hash). */
  passwordSet: boolean;
  mustResetPassword: boolean;
  twoFactor: { enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number };
  defaultTenantId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface MyDataSignIns {
  /** Sign-in links by e-mail: 'request' asked for on the login page, 'mail' carried by an e-mail. */
  signInLinks: { origin: 'request' | 'mail'; createdAt: string; expiresAt: string; usedAt: string | null }[];
  passwordResets: { createdAt: string; expiresAt: string; usedAt: string | null }[];
  /** Second steps of sign-ins with a second factor. */
  secondFactorChallenges: { createdAt: string; expiresAt: string; usedAt: string | null; attempts: number }[];
  /** Second factor turned on, off or reset; `byYou` false: reset by a platform administrator. */
  securityEvents: { kind: string; at: string; byYou: boolean }[];
  /** Consecutive failed sign-ins with this e-mail, if any are counted now. */
  failedSignIns: { failures: number; lastFailureAt: string } | null;
  /** Networks (an IPv4 address or an IPv6 /64) the account signed in from, and when last. */
  knownNetworks: { network: string; lastSignInAt: string }[];
}

export interface MyDataPlace {
  id: number;
  name: string;
}

export interface MyDataBillingAddress {
  street: string | null;
  zip: string | null;
  municipality: string | null;
  province: string | null;
  /** Sigla ('RM'). */
  provinceAbbreviation: string | null;
  region: string | null;
}

/** What the tenant records of the person: the data its invoices carry. */
export interface MyDataCustomer {
  name: string | null;
  email: string;
  isCompany: boolean;
  fiscalCode: string | null;
  vatCode: string | null;
  countryCode: string;
  billingCity: string | null;
  sdi: string | null;
  pec: string | null;
  phone: string | null;
  publicAdministration: boolean;
  paOfficeCode: string | null;
  cig: string | null;
  withholdingAgent: boolean | null;
  billingAddress: MyDataBillingAddress | null;
  /** 'Utente Attivo' in this tenant. */
  active: boolean;
  createdAt: string;
  updatedAt: string;
  /** When one of the person's subscriptions here first became live. */
  firstLiveAt: string | null;
}

export interface MyDataTenant {
  tenant: { id: number; name: string };
  /** False: the tenant's database could not be read now (try again later); the lists are empty. */
  available: boolean;
  customer: MyDataCustomer | null;
  addresses: {
    id: number;
    street: string;
    zip: string;
    municipality: string;
    province: string;
    createdAt: string;
  }[];
  subscriptions: MyDataSubscription[];
  invoices: MyDataInvoice[];
  /** Paid payments whose invoice waits for missing data, with what is missing. */
  invoicesWaiting: { paymentId: number; messages: string[]; at: string }[];
  /** Requests made through the plan widget with the person's e-mail. */
  widgetRequests: {
    plan: string;
    status: string;
    createdAt: string;
    confirmedAt: string | null;
    emailsSent: number;
  }[];
  /** E-mails the tenant's Rinnova sent (or is about to send) to the person's address; no bodies. */
  emails: MyDataEmail[];
  /** Events about the person's subscriptions sent to the tenant's own systems (webhooks). */
  webhookDeliveries: {
    eventType: string;
    eventId: string;
    createdAt: string;
    status: string;
    recipient: string;
  }[];
}

export interface MyDataEmail {
  subject: string;
  to: string;
  queuedAt: string;
  sentAt: string | null;
  attachments: string[];
}

export interface MyDataSubscription {
  id: number;
  plan: { id: number; name: string };
  status: string;
  statusLabel: string;
  startDate: string;
  nextBillingDate: string;
  costBeforeVat: number;
  vatPercent: number;
  amountDue: number;
  currency: string;
  createdAt: string;
  payments: MyDataPayment[];
  /** Status changes; `by` is the kind of actor only ('user', 'provider', 'system', …). */
  history: {
    event: string;
    from: string | null;
    to: string;
    by: string;
    reason: string | null;
    at: string;
  }[];
  reminders: { kind: string; periodEnd: string; sentAt: string }[];
}

export interface MyDataPayment {
  id: number;
  causale: string;
  amountDue: number;
  currency: string;
  periodStart: string;
  periodEnd: string;
  /** 'bankTransfer' | 'paypal' | 'stripe', null until chosen. */
  method: string | null;
  paidAt: string | null;
  providerSubscriptionId: string | null;
  providerPaymentId: string | null;
  createdAt: string;
  bankTransfers: { amount: number; currency: string; approvedAt: string | null; createdAt: string }[];
  /** The day it falls due (YYYY-MM-DD, Europe/Rome) and its collection (issue 29). */
  dueDate: string;
  collectionStatus: CollectionStatus;
  collectionStatusLabel: string;
  /**
   * What moved its collection: each reminder sent to you, a provider's failed charge or retry, a
   * late payment recorded. `by` is the kind of actor only ('system' the daily job, 'provider',
   * 'user' the seller's staff, never named).
   */
  collection: {
    kind: CollectionEventKind;
    label: string;
    step: number | null;
    by: 'system' | 'provider' | 'user';
    note: string | null;
    at: string;
  }[];
  /** Payment links made for it (the links themselves are never stored). */
  paymentLinks: {
    status: 'active' | 'used' | 'expired';
    amount: number;
    createdAt: string;
    expiresAt: string;
    usedAt: string | null;
  }[];
}

export interface MyDataInvoice {
  id: number;
  documentType: 'TD01' | 'TD04';
  documentTypeName: string;
  number: string;
  date: string;
  customerName: string;
  taxable: number;
  vat: number;
  total: number;
  currency: string;
  paymentId: number;
  paymentMethod: string;
  format: string;
  recipientCode: string;
  recipientPec: string | null;
  status: string;
  statusName: string;
  fileName: string;
  /** The invoice a credit note reverses. */
  relatedInvoiceNumber: string | null;
  sdiId: string | null;
  /** Sends to the SdI through the tenant's PEC. */
  sends: { at: string; to: string; status: string; finishedAt: string | null }[];
}
