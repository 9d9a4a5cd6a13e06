export const Role = { SuperAdmin: 1, Admin: 2, User: 3 } as const;
export type RoleId = (typeof Role)[keyof typeof Role];
export type RoleName = keyof typeof Role;

export const roleNameById: Record<RoleId, RoleName> = { 1: 'SuperAdmin', 2: 'Admin', 3: 'User' };

export function isRoleId(value: unknown): value is RoleId {
  return value === 1 || value === 2 || value === 3;
}

export const SubscriptionStatus = {
  Active: 1,
  NotActive: 2,
  ActiveNoRenewal: 3,
  BankTransferPending: 4,
  Canceled: 5,
} as const;
export type SubscriptionStatusId = (typeof SubscriptionStatus)[keyof typeof SubscriptionStatus];

export const PaymentTokenStatus = { Active: 0, Used: 1, Expired: 2 } as const;

/** Recurrence in months (spec §3). 4 is named 'quadrennial' by the spec, kept as named. */
export const RecurrenceType = {
  Monthly: 1,
  Bimonthly: 2,
  Quarterly: 3,
  Quadrennial: 4,
  Semiannual: 6,
  Annual: 12,
} as const;

export const PAGE_SIZES = [5, 10, 20] as const;
export const DEFAULT_PAGE_SIZE = 5;
export const MAX_PAGE_SIZE = 100;
export const TENANT_LIST_PAGE_SIZE = 100;
export const MIN_PASSWORD_LENGTH = 6;
export const DEFAULT_VAT_PERCENTAGE = 22;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const PAYMENT_TOKEN_TTL_MS = 60 * 60 * 1000;
