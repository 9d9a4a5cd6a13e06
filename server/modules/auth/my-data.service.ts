/**
 * 'I miei dati' (issue 28, GDPR art. 15 and 20): everything Rinnova holds about one person, read
 * for that person only. The identity, its sign-in history and contact messages come from the
 * control database; each tenant's section from that tenant's own database (`connectionFor`), its
 * rows selected by the person's id (or e-mail) and the tenant's id. Every column is picked by name:
 * no hash, secret or another person's data can slip in with a new column.
 */
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { fromCents } from '../../../contract/money';
import { roleNameById, type RoleId } from '../../../contract/enums';
import { invoiceStatusNames, documentTypeNames, type InvoiceStatus } from '../../../contract/schemas/invoice';
import {
  collectionEventNames,
  collectionStateLabel,
  type CollectionEventKind,
  type CollectionStatus,
} from '../../../contract/schemas/collection';
import {
  MY_DATA_FORMAT,
  MY_DATA_VERSION,
  type MyDataCustomer,
  type MyDataExport,
  type MyDataPayment,
  type MyDataSignIns,
  type MyDataSubscription,
  type MyDataTenant,
} from '../../../contract/schemas/my-data';
import {
  subscriptionStatusLabels,
  subscriptionStatusNames,
  type SubscriptionStatusId,
} from '../../../contract/subscription-status';
import type { Database } from '../../db/client';
import {
  addresses,
  bankTransfers,
  contactMessages,
  invoiceIssues,
  invoiceSends,
  invoices,
  loginLinkTokens,
  municipalities,
  outbox,
  passwordResetTokens,
  collectionEvents,
  payments,
  paymentTokens,
  plans,
  provinces,
  recoveryCodes,
  regions,
  securityEvents,
  signInChallenges,
  signInFailures,
  signInKnownAddresses,
  subscriptionEvents,
  subscriptionReminders,
  subscriptions,
  tenants,
  users,
  userTenants,
  webhookDeliveries,
  webhookEndpoints,
  widgetRequests,
} from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { serverMessages } from '../../../contract/messages';
import { emailDigest } from './sign-in-guard';

export interface MyDataDeps {
  /** The control database. */
  db: Database;
  connectionFor: (tenantId: number) => Database;
}

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
const euros = (cents: number) => fromCents(cents);
const statusName = (s: number) => subscriptionStatusNames[s as SubscriptionStatusId] ?? String(s);
const statusLabel = (s: number) => subscriptionStatusLabels[s as SubscriptionStatusId] ?? String(s);
const tokenStatus = ['active', 'used', 'expired'] as const;

/** Everything held about `userId`; 401 if the account is gone (the session outlived it). */
export async function collectMyData(deps: MyDataDeps, userId: number, now: Date): Promise<MyDataExport> {
  const { db } = deps;
  const [u] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      roleId: users.roleId,
      isActive: users.isActive,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
      mustResetPassword: users.mustResetPassword,
      totpEnabledAt: users.totpEnabledAt,
      twoFactorOn: sql<boolean>`${users.totpSecretEncrypted} is not null`,
      defaultTenantId: users.defaultTenantId,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!u) throw new HttpError(401, serverMessages.tokenMissing);

  const [codes] = await db
    .select({ left: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));

  const memberships = await db
    .select({ id: tenants.id, name: tenants.name })
    .from(userTenants)
    .innerJoin(tenants, eq(tenants.id, userTenants.tenantId))
    .where(eq(userTenants.userId, userId))
    .orderBy(asc(tenants.name), asc(tenants.id));

  const contacts = await db
    .select({
      createdAt: contactMessages.createdAt,
      message: contactMessages.message,
      optIn: contactMessages.optIn,
      locale: contactMessages.locale,
    })
    .from(contactMessages)
    .where(sql`lower(${contactMessages.email}) = ${u.email.toLowerCase()}`)
    .orderBy(asc(contactMessages.id));

  const tenantSections: MyDataTenant[] = [];
  for (const t of memberships) {
    tenantSections.push(await tenantSection(deps.connectionFor(t.id), t, userId, u.email));
  }

  return {
    format: MY_DATA_FORMAT,
    version: MY_DATA_VERSION,
    generatedAt: iso(now),
    person: {
      id: u.id,
      email: u.email,
      name: u.name,
      role: roleNameById[u.roleId as RoleId],
      active: u.isActive,
      passwordSet: u.hasPassword,
      mustResetPassword: u.mustResetPassword,
      twoFactor: {
        enabled: u.twoFactorOn && u.totpEnabledAt !== null,
        enabledAt: isoOrNull(u.totpEnabledAt),
        recoveryCodesLeft: codes?.left ?? 0,
      },
      defaultTenantId: u.defaultTenantId,
      createdAt: iso(u.createdAt),
      updatedAt: iso(u.updatedAt),
    },
    signIns: await signInsOf(db, userId, u.email),
    contactMessages: contacts.map((c) => ({ ...c, createdAt: iso(c.createdAt) })),
    emails: await emailsTo(db, isNull(outbox.tenantId), u.email),
    tenants: tenantSections,
  };
}

async function signInsOf(db: Database, userId: number, email: string): Promise<MyDataSignIns> {
  const links = await db
    .select({
      origin: loginLinkTokens.origin,
      createdAt: loginLinkTokens.createdAt,
      expiresAt: loginLinkTokens.expiresAt,
      usedAt: loginLinkTokens.usedAt,
    })
    .from(loginLinkTokens)
    .where(eq(loginLinkTokens.userId, userId))
    .orderBy(desc(loginLinkTokens.id));
  const resets = await db
    .select({
      createdAt: passwordResetTokens.createdAt,
      expiresAt: passwordResetTokens.expiresAt,
      usedAt: passwordResetTokens.usedAt,
    })
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.userId, userId))
    .orderBy(desc(passwordResetTokens.id));
  const challenges = await db
    .select({
      createdAt: signInChallenges.createdAt,
      expiresAt: signInChallenges.expiresAt,
      usedAt: signInChallenges.usedAt,
      attempts: signInChallenges.attempts,
    })
    .from(signInChallenges)
    .where(eq(signInChallenges.userId, userId))
    .orderBy(desc(signInChallenges.id));
  const events = await db
    .select({ kind: securityEvents.kind, at: securityEvents.at, actor: securityEvents.actorUserId })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.at));
  const digest = emailDigest(email);
  const [failures] = await db
    .select({ failures: signInFailures.failures, lastFailureAt: signInFailures.lastFailureAt })
    .from(signInFailures)
    .where(eq(signInFailures.emailHash, digest));
  const networks = await db
    .select({ network: signInKnownAddresses.addressKey, lastSignInAt: signInKnownAddresses.lastSuccessAt })
    .from(signInKnownAddresses)
    .where(eq(signInKnownAddresses.emailHash, digest))
    .orderBy(desc(signInKnownAddresses.lastSuccessAt));
  return {
    signInLinks: links.map((l) => ({
      origin: l.origin as 'request' | 'mail',
      createdAt: iso(l.createdAt),
      expiresAt: iso(l.expiresAt),
      usedAt: isoOrNull(l.usedAt),
    })),
    passwordResets: resets.map((r) => ({
      createdAt: iso(r.createdAt),
      expiresAt: iso(r.expiresAt),
      usedAt: isoOrNull(r.usedAt),
    })),
    secondFactorChallenges: challenges.map((c) => ({
      createdAt: iso(c.createdAt),
      expiresAt: iso(c.expiresAt),
      usedAt: isoOrNull(c.usedAt),
      attempts: c.attempts,
    })),
    securityEvents: events.map((e) => ({
      kind: e.kind,
      at: iso(e.at),
      byYou: e.actor === null || e.actor === userId,
    })),
    failedSignIns: failures
      ? { failures: failures.failures, lastFailureAt: iso(failures.lastFailureAt) }
      : null,
    knownNetworks: networks.map((n) => ({ network: n.network, lastSignInAt: iso(n.lastSignInAt) })),
  };
}

/** A section with nothing in it (the tenant's database could not be read). */
function emptySection(tenant: { id: number; name: string }, available: boolean): MyDataTenant {
  return {
    tenant,
    available,
    customer: null,
    addresses: [],
    subscriptions: [],
    invoices: [],
    invoicesWaiting: [],
    widgetRequests: [],
    emails: [],
    webhookDeliveries: [],
  };
}

async function tenantSection(
  tdb: Database,
  tenant: { id: number; name: string },
  userId: number,
  email: string,
): Promise<MyDataTenant> {
  try {
    return await readTenantSection(tdb, tenant, userId, email);
  } catch (error) {
    // A tenant database that is down or being moved answers 503: the others are still answered.
    if (error instanceof HttpError && error.statusCode === 503) return emptySection(tenant, false);
    throw error;
  }
}

async function readTenantSection(
  tdb: Database,
  tenant: { id: number; name: string },
  userId: number,
  email: string,
): Promise<MyDataTenant> {
  const tenantId = tenant.id;
  const section = emptySection(tenant, true);
  section.customer = await customerOf(tdb, tenantId, userId);

  section.addresses = (
    await tdb
      .select({
        id: addresses.id,
        street: addresses.street,
        zip: addresses.zip,
        municipality: municipalities.name,
        province: provinces.abbreviation,
        createdAt: addresses.createdAt,
      })
      .from(addresses)
      .innerJoin(municipalities, eq(municipalities.id, addresses.municipalityId))
      .innerJoin(provinces, eq(provinces.id, municipalities.provinceId))
      .where(and(eq(addresses.tenantId, tenantId), eq(addresses.userId, userId)))
      .orderBy(asc(addresses.id))
  ).map((a) => ({ ...a, createdAt: iso(a.createdAt) }));

  section.subscriptions = await subscriptionsOf(tdb, tenantId, userId);
  section.invoices = await invoicesOf(tdb, tenantId, userId);

  section.invoicesWaiting = (
    await tdb
      .select({ paymentId: invoiceIssues.paymentId, messages: invoiceIssues.messages, at: invoiceIssues.at })
      .from(invoiceIssues)
      .where(and(eq(invoiceIssues.tenantId, tenantId), eq(invoiceIssues.userId, userId)))
      .orderBy(asc(invoiceIssues.id))
  ).map((i) => ({ ...i, at: iso(i.at) }));

  section.widgetRequests = (
    await tdb
      .select({
        plan: plans.name,
        status: widgetRequests.status,
        createdAt: widgetRequests.createdAt,
        confirmedAt: widgetRequests.confirmedAt,
        emailsSent: widgetRequests.sendCount,
      })
      .from(widgetRequests)
      .innerJoin(plans, and(eq(plans.id, widgetRequests.planId), eq(plans.tenantId, widgetRequests.tenantId)))
      .where(and(eq(widgetRequests.tenantId, tenantId), eq(widgetRequests.email, email.toLowerCase())))
      .orderBy(asc(widgetRequests.id))
  ).map((r) => ({ ...r, createdAt: iso(r.createdAt), confirmedAt: isoOrNull(r.confirmedAt) }));

  section.emails = await emailsTo(tdb, eq(outbox.tenantId, tenantId), email);

  const subscriptionIds = section.subscriptions.map((s) => String(s.id));
  section.webhookDeliveries = await webhookDeliveriesOf(tdb, tenantId, userId, subscriptionIds);
  return section;
}

async function customerOf(tdb: Database, tenantId: number, userId: number): Promise<MyDataCustomer | null> {
  const [c] = await tdb
    .select({
      name: userTenants.name,
      email: users.email,
      isCompany: userTenants.isCompany,
      fiscalCode: userTenants.fiscalCode,
      vatCode: userTenants.vatCode,
      countryCode: userTenants.countryCode,
      billingCity: userTenants.billingCity,
      sdi: userTenants.sdi,
      pec: userTenants.pec,
      phone: userTenants.phone,
      publicAdministration: userTenants.publicAdministration,
      paOfficeCode: userTenants.paOfficeCode,
      cig: userTenants.cig,
      withholdingAgent: userTenants.withholdingAgent,
      street: userTenants.billingStreet,
      zip: userTenants.billingZip,
      municipality: municipalities.name,
      province: provinces.name,
      provinceAbbreviation: provinces.abbreviation,
      region: regions.name,
      active: userTenants.isActive,
      createdAt: userTenants.createdAt,
      updatedAt: userTenants.updatedAt,
      firstLiveAt: userTenants.firstLiveAt,
    })
    .from(userTenants)
    .innerJoin(users, eq(users.id, userTenants.userId))
    .leftJoin(municipalities, eq(municipalities.id, userTenants.billingMunicipalityId))
    .leftJoin(provinces, eq(provinces.id, userTenants.billingProvinceId))
    .leftJoin(regions, eq(regions.id, userTenants.billingRegionId))
    .where(and(eq(userTenants.tenantId, tenantId), eq(userTenants.userId, userId)));
  if (!c) return null;
  const { street, zip, municipality, province, provinceAbbreviation, region, ...rest } = c;
  const hasAddress = [street, zip, municipality, province, region].some((v) => v !== null && v !== '');
  return {
    ...rest,
    billingAddress: hasAddress ? { street, zip, municipality, province, provinceAbbreviation, region } : null,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
    firstLiveAt: isoOrNull(c.firstLiveAt),
  };
}

async function subscriptionsOf(
  tdb: Database,
  tenantId: number,
  userId: number,
): Promise<MyDataSubscription[]> {
  const subs = await tdb
    .select({
      id: subscriptions.id,
      planId: plans.id,
      planName: plans.name,
      status: subscriptions.status,
      startDate: subscriptions.startDate,
      nextBillingDate: subscriptions.nextBillingDate,
      costBeforeVatCents: subscriptions.costBeforeVatCents,
      vatHundredths: subscriptions.vatHundredths,
      amountDueCents: subscriptions.amountDueCents,
      currency: subscriptions.currency,
      createdAt: subscriptions.createdAt,
    })
    .from(subscriptions)
    .innerJoin(plans, and(eq(plans.id, subscriptions.planId), eq(plans.tenantId, subscriptions.tenantId)))
    .where(and(eq(subscriptions.tenantId, tenantId), eq(subscriptions.userId, userId)))
    .orderBy(asc(subscriptions.id));
  if (subs.length === 0) return [];
  const ids = subs.map((s) => s.id);

  const pays = await tdb
    .select({
      id: payments.id,
      subscriptionId: payments.subscriptionId,
      causale: payments.causale,
      amountDueCents: payments.amountDueCents,
      currency: payments.currency,
      periodStart: payments.periodStart,
      periodEnd: payments.periodEnd,
      method: payments.method,
      paidAt: payments.paidAt,
      providerSubscriptionId: payments.providerSubscriptionId,
      providerPaymentId: payments.providerPaymentId,
      createdAt: payments.createdAt,
      dueDate: payments.dueDate,
      collectionStatus: payments.collectionStatus,
    })
    .from(payments)
    .where(and(eq(payments.tenantId, tenantId), inArray(payments.subscriptionId, ids)))
    .orderBy(asc(payments.id));
  const paymentIds = pays.map((p) => p.id);

  const transfers =
    paymentIds.length === 0
      ? []
      : await tdb
          .select({
            paymentId: bankTransfers.paymentId,
            amountCents: bankTransfers.amountCents,
            currency: bankTransfers.currency,
            approvalDate: bankTransfers.approvalDate,
            createdAt: bankTransfers.createdAt,
          })
          .from(bankTransfers)
          .where(and(eq(bankTransfers.tenantId, tenantId), inArray(bankTransfers.paymentId, paymentIds)))
          .orderBy(asc(bankTransfers.id));
  const links =
    paymentIds.length === 0
      ? []
      : await tdb
          .select({
            paymentId: paymentTokens.paymentId,
            status: paymentTokens.status,
            amountCents: paymentTokens.amountCents,
            createdAt: paymentTokens.createdAt,
            expiresAt: paymentTokens.expiresAt,
            usedAt: paymentTokens.usedAt,
          })
          .from(paymentTokens)
          .where(and(eq(paymentTokens.tenantId, tenantId), inArray(paymentTokens.paymentId, paymentIds)))
          .orderBy(asc(paymentTokens.id));
  const collection =
    paymentIds.length === 0
      ? []
      : await tdb
          .select({
            paymentId: collectionEvents.paymentId,
            kind: collectionEvents.kind,
            step: collectionEvents.step,
            by: collectionEvents.actorKind,
            note: collectionEvents.note,
            at: collectionEvents.at,
          })
          .from(collectionEvents)
          .where(
            and(eq(collectionEvents.tenantId, tenantId), inArray(collectionEvents.paymentId, paymentIds)),
          )
          .orderBy(asc(collectionEvents.id));
  const history = await tdb
    .select({
      subscriptionId: subscriptionEvents.subscriptionId,
      event: subscriptionEvents.event,
      from: subscriptionEvents.fromStatus,
      to: subscriptionEvents.toStatus,
      by: subscriptionEvents.actorKind,
      reason: subscriptionEvents.reason,
      at: subscriptionEvents.at,
    })
    .from(subscriptionEvents)
    .where(and(eq(subscriptionEvents.tenantId, tenantId), inArray(subscriptionEvents.subscriptionId, ids)))
    .orderBy(asc(subscriptionEvents.id));
  const reminders = await tdb
    .select({
      subscriptionId: subscriptionReminders.subscriptionId,
      kind: subscriptionReminders.kind,
      periodEnd: subscriptionReminders.periodEnd,
      sentAt: subscriptionReminders.sentAt,
    })
    .from(subscriptionReminders)
    .where(
      and(eq(subscriptionReminders.tenantId, tenantId), inArray(subscriptionReminders.subscriptionId, ids)),
    )
    .orderBy(asc(subscriptionReminders.id));

  const paymentOf = (p: (typeof pays)[number]): MyDataPayment => ({
    id: p.id,
    causale: p.causale,
    amountDue: euros(p.amountDueCents),
    currency: p.currency,
    periodStart: iso(p.periodStart),
    periodEnd: iso(p.periodEnd),
    method: p.method,
    paidAt: isoOrNull(p.paidAt),
    providerSubscriptionId: p.providerSubscriptionId,
    providerPaymentId: p.providerPaymentId,
    createdAt: iso(p.createdAt),
    dueDate: p.dueDate,
    collectionStatus: p.collectionStatus as CollectionStatus,
    collectionStatusLabel: collectionStateLabel(p.collectionStatus as CollectionStatus, p.paidAt !== null),
    // The actor's kind only: the staff member's name is another person's data.
    collection: collection
      .filter((c) => c.paymentId === p.id)
      .map((c) => ({
        kind: c.kind as CollectionEventKind,
        label: collectionEventNames[c.kind as CollectionEventKind] ?? c.kind,
        step: c.step,
        by: c.by as 'system' | 'provider' | 'user',
        note: c.note,
        at: iso(c.at),
      })),
    bankTransfers: transfers
      .filter((t) => t.paymentId === p.id)
      .map((t) => ({
        amount: euros(t.amountCents),
        currency: t.currency,
        approvedAt: isoOrNull(t.approvalDate),
        createdAt: iso(t.createdAt),
      })),
    paymentLinks: links
      .filter((l) => l.paymentId === p.id)
      .map((l) => ({
        status: tokenStatus[l.status] ?? 'expired',
        amount: euros(l.amountCents),
        createdAt: iso(l.createdAt),
        expiresAt: iso(l.expiresAt),
        usedAt: isoOrNull(l.usedAt),
      })),
  });

  return subs.map((s) => ({
    id: s.id,
    plan: { id: s.planId, name: s.planName },
    status: statusName(s.status),
    statusLabel: statusLabel(s.status),
    startDate: iso(s.startDate),
    nextBillingDate: iso(s.nextBillingDate),
    costBeforeVat: euros(s.costBeforeVatCents),
    vatPercent: s.vatHundredths / 100,
    amountDue: euros(s.amountDueCents),
    currency: s.currency,
    createdAt: iso(s.createdAt),
    payments: pays.filter((p) => p.subscriptionId === s.id).map(paymentOf),
    history: history
      .filter((h) => h.subscriptionId === s.id)
      .map((h) => ({
        event: h.event,
        from: h.from === null ? null : statusName(h.from),
        to: statusName(h.to),
        by: h.by,
        reason: h.reason,
        at: iso(h.at),
      })),
    reminders: reminders
      .filter((r) => r.subscriptionId === s.id)
      .map((r) => ({ kind: r.kind, periodEnd: iso(r.periodEnd), sentAt: iso(r.sentAt) })),
  }));
}

async function invoicesOf(tdb: Database, tenantId: number, userId: number) {
  const rows = await tdb
    .select({
      id: invoices.id,
      documentType: invoices.documentType,
      number: invoices.numberText,
      date: invoices.issueDate,
      customerName: invoices.customerName,
      taxableCents: invoices.taxableCents,
      vatCents: invoices.vatCents,
      totalCents: invoices.totalCents,
      currency: invoices.currency,
      paymentId: invoices.paymentId,
      paymentMethod: invoices.paymentMethod,
      format: invoices.format,
      recipientCode: invoices.recipientCode,
      recipientPec: invoices.recipientPec,
      status: invoices.status,
      fileName: invoices.fileName,
      relatedInvoiceId: invoices.relatedInvoiceId,
      sdiId: invoices.sdiId,
    })
    .from(invoices)
    .where(and(eq(invoices.tenantId, tenantId), eq(invoices.userId, userId)))
    .orderBy(asc(invoices.issueDate), asc(invoices.id));
  if (rows.length === 0) return [];
  const sends = await tdb
    .select({
      invoiceId: invoiceSends.invoiceId,
      at: invoiceSends.at,
      to: invoiceSends.to,
      status: invoiceSends.status,
      finishedAt: invoiceSends.finishedAt,
    })
    .from(invoiceSends)
    .where(
      and(
        eq(invoiceSends.tenantId, tenantId),
        inArray(
          invoiceSends.invoiceId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(invoiceSends.id));
  const numberOf = new Map(rows.map((r) => [r.id, r.number]));
  return rows.map((r) => ({
    id: r.id,
    documentType: r.documentType as 'TD01' | 'TD04',
    documentTypeName: documentTypeNames[r.documentType as 'TD01' | 'TD04'] ?? r.documentType,
    number: r.number,
    date: r.date,
    customerName: r.customerName,
    taxable: euros(r.taxableCents),
    vat: euros(r.vatCents),
    total: euros(r.totalCents),
    currency: r.currency,
    paymentId: r.paymentId,
    paymentMethod: r.paymentMethod,
    format: r.format,
    recipientCode: r.recipientCode,
    recipientPec: r.recipientPec,
    status: r.status,
    statusName: invoiceStatusNames[r.status as InvoiceStatus] ?? r.status,
    fileName: r.fileName,
    relatedInvoiceNumber: r.relatedInvoiceId === null ? null : (numberOf.get(r.relatedInvoiceId) ?? null),
    sdiId: r.sdiId,
    sends: sends
      .filter((s) => s.invoiceId === r.id)
      .map((s) => ({ at: iso(s.at), to: s.to, status: s.status, finishedAt: isoOrNull(s.finishedAt) })),
  }));
}

/**
 * E-mails queued to the person's address: subject, recipient, dates and attachment names. The
 * body is left out: a queued message may carry a link with a live token (a reset link, a widget
 * confirmation), which this file must never hold.
 */
async function emailsTo(tdb: Database, scope: ReturnType<typeof eq>, email: string) {
  const address = email.toLowerCase();
  const rows = await tdb
    .select({
      to: sql<string>`${outbox.payload}->>'to'`,
      subject: sql<string>`${outbox.payload}->>'subject'`,
      attachments: sql<unknown>`${outbox.payload}->'attachments'`,
      queuedAt: outbox.createdAt,
      sentAt: outbox.sentAt,
    })
    .from(outbox)
    .where(
      and(
        scope,
        eq(outbox.kind, 'email'),
        sql`(lower(${outbox.payload}->>'to') = ${address} or lower(${outbox.payload}->>'to') like ${`%<${address}>`})`,
      ),
    )
    .orderBy(asc(outbox.id));
  return rows.map((r) => ({
    subject: r.subject ?? '',
    to: r.to,
    queuedAt: iso(r.queuedAt),
    sentAt: isoOrNull(r.sentAt),
    attachments: Array.isArray(r.attachments)
      ? r.attachments
          .map((a) => (a && typeof a === 'object' && 'filename' in a ? String(a.filename) : ''))
          .filter((n) => n !== '')
      : [],
  }));
}

/**
 * Webhook deliveries whose event is about the person: a subscription event naming them as its
 * customer, a payment or a bank transfer of one of their subscriptions. The recipient is the
 * endpoint's origin only (a webhook URL may hold the receiver's own secret in its path or query).
 */
async function webhookDeliveriesOf(
  tdb: Database,
  tenantId: number,
  userId: number,
  subscriptionIds: string[],
) {
  const body = sql`(${webhookDeliveries.body})::jsonb`;
  const aboutSubscription =
    subscriptionIds.length === 0
      ? sql`false`
      : sql`coalesce(${body}->'data'->'payment'->>'subscriptionId', ${body}->'data'->'bankTransfer'->>'subscriptionId', ${body}->'data'->'subscription'->>'id') in (${sql.join(
          subscriptionIds.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  const rows = await tdb
    .select({
      eventType: webhookDeliveries.eventType,
      eventId: webhookDeliveries.eventId,
      createdAt: webhookDeliveries.createdAt,
      status: webhookDeliveries.status,
      url: webhookEndpoints.url,
    })
    .from(webhookDeliveries)
    .innerJoin(
      webhookEndpoints,
      and(
        eq(webhookEndpoints.id, webhookDeliveries.endpointId),
        eq(webhookEndpoints.tenantId, webhookDeliveries.tenantId),
      ),
    )
    .where(
      and(
        eq(webhookDeliveries.tenantId, tenantId),
        sql`(${body}->'data'->'subscription'->>'customerId' = ${String(userId)} or ${aboutSubscription})`,
      ),
    )
    .orderBy(asc(webhookDeliveries.id));
  return rows.map((r) => ({
    eventType: r.eventType,
    eventId: r.eventId,
    createdAt: iso(r.createdAt),
    status: r.status,
    recipient: originOf(r.url),
  }));
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
