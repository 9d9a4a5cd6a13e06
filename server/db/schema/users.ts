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
import { createdAt, id } from './columns';
import { tenants } from './tenants';

/**
 * A person who can sign in. The sign-in identity is global (one row per e-mail, unique
 * case-insensitively) and tenants are reached through `user_tenants`, so a SuperAdmin needs no
 * tenant and one person can work in several tenants.
 */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    name: text('name'),
    pec: text('pec'),
    phone: text('phone'),
    sdi: text('sdi'),
    vatCode: text('vat_code'),
    isCompany: boolean('is_company').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    roleId: smallint('role_id').notNull(),
    /** Null until the owner sets one through the e-mailed link. */
    passwordHash: text('password_hash'),
    mustResetPassword: boolean('must_reset_password').notNull().default(false),
    defaultTenantId: integer('default_tenant_id').references(() => tenants.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_default_tenant_id_idx').on(t.defaultTenantId),
    check('users_role_id_check', sql`${t.roleId} in (1, 2, 3)`),
  ],
);

export const userTenants = pgTable(
  'user_tenants',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.tenantId] }),
    index('user_tenants_tenant_id_idx').on(t.tenantId),
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
