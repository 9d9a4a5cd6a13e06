import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { municipalities, provinces, regions } from './geography';
import { tenants } from './tenants';

/**
 * A person who can sign in. The sign-in identity is global (one row per e-mail, unique
 * case-insensitively; the role is global too, as the login response carries it) and tenants are
 * reached through `user_tenants`, which also holds what a tenant knows about the person (name,
 * PEC, VAT, billing address, active). So a SuperAdmin needs no tenant, one person can be a
 * customer of several tenants, and no tenant reads or changes what another tenant recorded.
 */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    /** Display name (login response, e-mail greetings); each tenant keeps its own in user_tenants. */
    name: text('name'),
    /** Global kill switch: false blocks sign-in everywhere (not exposed by the user API). */
    isActive: boolean('is_active').notNull().default(true),
    roleId: smallint('role_id').notNull(),
    /** Null until the owner sets one through the e-mailed link. */
    passwordHash: text('password_hash'),
    mustResetPassword: boolean('must_reset_password').notNull().default(false),
    /**
     * Sessions: every token carries the version it was issued with (claim `tv`) and is refused
     * once this moves on. Bumped by a password reset, a role change, deactivation, removal from a
     * tenant, and Logout, so those end the person's sessions at once.
     */
    tokenVersion: integer('token_version').notNull().default(0),
    defaultTenantId: integer('default_tenant_id').references(() => tenants.id),
    /** Two-factor sign-in (TOTP, RFC 6238): the secret, sealed by the secret box, once confirmed. */
    totpSecretEncrypted: text('totp_secret_encrypted'),
    /** A secret shown for enrolment, waiting for its first code. */
    totpPendingEncrypted: text('totp_pending_encrypted'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true, mode: 'date' }),
    /** The last 30-second step a code was accepted for: a code is never accepted twice. */
    totpLastStep: integer('totp_last_step'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_default_tenant_id_idx').on(t.defaultTenantId),
    check('users_role_id_check', sql`${t.roleId} in (1, 2, 3)`),
  ],
);

/**
 * Membership of a user in a tenant, with the tenant's own record of that user: the user API of
 * a tenant reads and writes these columns (plus e-mail and role of the identity). Rows of other
 * tables that belong to a user inside a tenant (addresses, later subscriptions) reference
 * (user_id, tenant_id) here, so they stay in the user's tenant and a membership still in use
 * cannot be removed (409).
 */
export const userTenants = pgTable(
  'user_tenants',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name'),
    pec: text('pec'),
    phone: text('phone'),
    sdi: text('sdi'),
    vatCode: text('vat_code'),
    isCompany: boolean('is_company').notNull().default(false),
    /** Codice fiscale (16 characters, or 11 digits for a company): a consumer's invoice needs it. */
    fiscalCode: text('fiscal_code'),
    /** ISO 3166 country of the billing address ('IT' unless abroad: then invoices go to XXXXXXX). */
    countryCode: text('country_code').notNull().default('IT'),
    /** City of a billing address abroad (no ISTAT municipality there). */
    billingCity: text('billing_city'),
    /** Codice univoco ufficio (IPA, 6 characters) of a public administration: FPA12 invoices. */
    paOfficeCode: text('pa_office_code'),
    /** A public administration: split payment and FPA12 (contract 'Fiscal profiles'). */
    publicAdministration: boolean('public_administration').notNull().default(false),
    /** CIG of a public administration's order (DatiOrdineAcquisto). */
    cig: text('cig'),
    /**
     * Sostituto d'imposta (withholds the ritenuta); null: the default, true for an Italian
     * business or public body, false for a private person.
     */
    withholdingAgent: boolean('withholding_agent'),
    /** False: the user may not act in this tenant (403) and does not see it. */
    isActive: boolean('is_active').notNull().default(true),
    billingStreet: text('billing_street'),
    billingZip: text('billing_zip'),
    billingRegionId: integer('billing_region_id').references(() => regions.id),
    billingProvinceId: integer('billing_province_id').references(() => provinces.id),
    billingMunicipalityId: integer('billing_municipality_id').references(() => municipalities.id),
    /**
     * What the user list's free-text search looks in: name, e-mail, PEC, phone, SDI and Partita
     * IVA, lower-cased; kept by triggers (migration 0005), trigram-indexed.
     */
    searchText: text('search_text').notNull().default(''),
    /**
     * The user's e-mail, copied by the same triggers (migration 0015), so the tenant's customer
     * list sorts and filters by e-mail on the membership's own index, never reading every user.
     */
    email: text('email').notNull().default(''),
    /**
     * When one of the customer's subscriptions in this tenant first became live (Active or
     * ActiveNoRenewal), kept by a trigger on subscription_events (migration 0011): the dashboard's
     * new customers of a month.
     */
    firstLiveAt: timestamp('first_live_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.tenantId] }),
    index('user_tenants_tenant_first_live_idx').on(t.tenantId, t.firstLiveAt),
    index('user_tenants_tenant_email_order_idx').on(t.tenantId, sql`lower(${t.email})`, t.userId),
    index('user_tenants_tenant_id_idx').on(t.tenantId),
    // INCLUDE (name, email, search_text) added by migration 0016 (drizzle has no INCLUDE): the
    // name-ordered walks of the customer list and select are index-only.
    index('user_tenants_tenant_name_order_idx').on(t.tenantId, sql`lower(${t.name})`, t.userId),
    index('user_tenants_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('user_tenants_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('user_tenants_billing_municipality_id_idx').on(t.billingMunicipalityId),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 of the token: a leaked table does not leak usable links. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_idx').on(t.tokenHash),
    index('password_reset_tokens_user_id_idx').on(t.userId),
  ],
);

/**
 * Sign-in links of customers (issue 28): handed out by e-mail, stored only as the sha256 of the
 * token (32 random bytes, base64url), single use, short-lived. `origin` says why one was made:
 * 'request' (asked for on the login page) or 'mail' (carried by an e-mail Rinnova sent the
 * customer). Expired rows are removed when new ones are issued.
 */
export const loginLinkTokens = pgTable(
  'login_link_tokens',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    origin: text('origin').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('login_link_tokens_hash_idx').on(t.tokenHash),
    index('login_link_tokens_user_id_idx').on(t.userId),
    index('login_link_tokens_expires_at_idx').on(t.expiresAt),
    check('login_link_tokens_origin_check', sql`${t.origin} in ('request', 'mail')`),
  ],
);

/** One-time recovery codes of a two-factor account (sha256 only); used ones keep `usedAt`. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_idx').on(t.userId, t.codeHash)],
);

/**
 * The second step of a sign-in: handed out once the password was right, short-lived, single use,
 * bound to the account and its token version (a password reset meanwhile voids it).
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    tokenVersion: integer('token_version').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    attempts: smallint('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sign_in_challenges_hash_idx').on(t.tokenHash),
    index('sign_in_challenges_user_idx').on(t.userId),
  ],
);

/**
 * Failed sign-ins per account name (sha256 of the lower-cased e-mail, whether an account exists
 * or not, so the delay reveals nothing), shared by every server process: each failure after the
 * third doubles the wait before the next try from an unknown address.
 */
export const signInFailures = pgTable('sign_in_failures', {
  emailHash: text('email_hash').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Addresses (an IPv6 /64) an account signed in from: the owner is not slowed by a stranger's failures. */
export const signInKnownAddresses = pgTable(
  'sign_in_known_addresses',
  {
    emailHash: text('email_hash').notNull(),
    addressKey: text('address_key').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.emailHash, t.addressKey] })],
);

/** What happened to an account's security (second factor on, off, reset by a SuperAdmin). */
export const securityEvents = pgTable(
  'security_events',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    actorUserId: integer('actor_user_id'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('security_events_user_idx').on(t.userId, t.at)],
);
