/** Paths of the REST contract, relative to the API base URL (which ends in /api). */
export const apiPaths = {
  entity: (entity: string) => ({
    getAll: `${entity}/getAll`,
    getById: (id: number | string) => `${entity}/GetById/${id}`,
    create: `${entity}/Create`,
    update: `${entity}/Update`,
    remove: (id: number | string) => `${entity}/Delete/${id}`,
    getAllForSelect: `${entity}/getAllForSelect`,
  }),
  user: {
    login: 'user/Login',
    isEmailUnique: (email: string) => `user/isEmailUnique/${encodeURIComponent(email)}`,
    requestPasswordReset: 'user/request-password-reset',
    resetPassword: 'user/reset-password',
    validateResetToken: 'user/validate-reset-token',
  },
  plan: {
    /** POST: replaces the plan's features with the array sent ([{ featureName, description }]). */
    associateFeatures: (planId: number | string) => `plan/associateFeatures/${planId}`,
    /** GET ?planId=: text/plain embed code of the plan's public widget. */
    iframe: 'plan/iframe',
  },
  paymentProvider: {
    /** GET (public): `data = { apiKey }`, the tenant's PayPal client id. */
    payPalSettingsByTenant: (tenantId: number | string) =>
      `paymentprovider/GetPayPalSettingsByTenant/${tenantId}`,
  },
  tenantList: 'tenant/getAll',
  health: 'health',
  contact: 'contact',
} as const;
