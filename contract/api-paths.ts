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
    logout: 'user/Logout',
    isEmailUnique: (email: string) => `user/isEmailUnique/${encodeURIComponent(email)}`,
    requestPasswordReset: 'user/request-password-reset',
    resetPassword: 'user/reset-password',
    validateResetToken: 'user/validate-reset-token',
    /** POST {Email} (no session): a sign-in link by e-mail to a customer; always the same answer. */
    requestLoginLink: 'user/request-login-link',
    /** POST {token}: signs in with the e-mailed link; answers what Login answers. */
    loginLink: 'user/login-link',
    /** POST {challenge, code}: the second step of a sign-in with two factors. */
    loginSecondFactor: 'user/Login/second-factor',
    /** GET: the caller's two-factor status. */
    twoFactor: 'user/two-factor',
    /** POST: a new secret to scan (not active until confirmed). */
    twoFactorSetup: 'user/two-factor/setup',
    /** POST {code}: confirms the scanned secret; answers the recovery codes, once. */
    twoFactorEnable: 'user/two-factor/enable',
    /** POST {code}: turns it off (a current code or a recovery code). */
    twoFactorDisable: 'user/two-factor/disable',
    /** GET / PUT (any member of the tenant): the caller's own billing data; PUT answers CustomerBillingSaved. */
    myBilling: 'user/me/billing',
    /** GET ?format=json|pdf (anyone signed in, no tenant): everything Rinnova holds about the caller (GDPR art. 15, 20), as a download. */
    myData: 'user/me/data',
    /** GET (customer): the renewal of each own subscription (`{ items: OwnRenewal[] }`). */
    myRenewals: 'user/me/subscriptions/renewal',
    /** POST {reason, note?} (customer): turns the renewal of an own Active subscription off. */
    cancelRenewal: (id: number | string) => `user/me/subscriptions/${id}/cancelRenewal`,
    /** POST (customer): turns it back on, before the next billing date. */
    resumeRenewal: (id: number | string) => `user/me/subscriptions/${id}/resumeRenewal`,
    /** POST (customer, own subscription): 'Paga ora' — a fresh payment link or the transfer instructions (PayNow). */
    myPay: (subscriptionId: number | string) => `user/me/subscriptions/${subscriptionId}/pay`,
    /** POST {action: 'portal' | 'bankTransfer'} (customer, own subscription): PaymentMethodAnswer. */
    myPaymentMethod: (subscriptionId: number | string) =>
      `user/me/subscriptions/${subscriptionId}/paymentMethod`,
    /**
     * GET (customer, own subscription): `{allowed, plans}` — whether the tenant lets its customers
     * change plan, and the plans offered (active, same recurrence); POST {planId, when, preview}:
     * the Admin's changePlan on their own subscription (issue 30).
     */
    myChangePlan: (subscriptionId: number | string) => `user/me/subscriptions/${subscriptionId}/changePlan`,
    /** POST (own subscription, back from PayPal): the coupon waiting for approval read back, {redeemed} (issue 30). */
    myPayPalCoupon: (subscriptionId: number | string) =>
      `user/me/subscriptions/${subscriptionId}/paypalCoupon`,
    /** POST (own subscription, back from PayPal): the plan change waiting for approval read back, {approved} (issue 30). */
    myPayPalPlanChange: (subscriptionId: number | string) =>
      `user/me/subscriptions/${subscriptionId}/paypalPlanChange`,
    /** GET (customer, own subscription): its one-off charges (issue 30), OwnOneOffCharge[]. */
    myCharges: (subscriptionId: number | string) => `user/me/subscriptions/${subscriptionId}/charges`,
    /** GET {allowed} / POST {periods} (customer, own subscription, where the tenant allows it): issue 30. */
    myPause: (subscriptionId: number | string) => `user/me/subscriptions/${subscriptionId}/pause`,
    /** POST (customer, own paused subscription): 'Riprendi ora'. */
    myResume: (subscriptionId: number | string) => `user/me/subscriptions/${subscriptionId}/resume`,
    /** POST (SuperAdmin): clears another person's second factor. */
    twoFactorReset: (userId: number | string) => `user/two-factor/reset/${userId}`,
  },
  plan: {
    /** POST: replaces the plan's features with the array sent ([{ featureName, description }]). */
    associateFeatures: (planId: number | string) => `plan/associateFeatures/${planId}`,
    /** GET ?planId=: text/plain embed code of the plan's public widget. */
    iframe: 'plan/iframe',
    /** GET ?planId= (public): the plan widget's view of an active plan. */
    widget: 'plan/widget',
    /** POST: creates the PayPal product (once) and billing plan, stores their ids. */
    syncPaypal: (planId: number | string) => `plan/syncPaypal/${planId}`,
    /** POST: creates the Stripe product (once) and a recurring price, stores the price id (stripePlanId). */
    syncStripe: (planId: number | string) => `plan/syncStripe/${planId}`,
  },
  /** Coupons (issue 30, Admin): the generic entity set; `couponCode` goes to subscription Create and quote. */
  coupon: {
    getAll: 'coupon/getAll',
    getById: (id: number | string) => `coupon/GetById/${id}`,
    create: 'coupon/Create',
    update: 'coupon/Update',
    remove: (id: number | string) => `coupon/Delete/${id}`,
  },
  paymentProvider: {
    /** GET (public): `data = { apiKey }`, the tenant's PayPal client id. */
    payPalSettingsByTenant: (tenantId: number | string) =>
      `paymentprovider/GetPayPalSettingsByTenant/${tenantId}`,
    /** GET (public): the public keys of the tenant's active providers (`{ paypal, stripe }`, null when absent). */
    publicSettingsByTenant: (tenantId: number | string) =>
      `paymentprovider/GetPublicSettingsByTenant/${tenantId}`,
  },
  subscription: {
    getAll: 'subscription/getAll',
    getById: (id: number | string) => `subscription/GetById/${id}`,
    create: 'subscription/Create',
    update: 'subscription/Update',
    /** POST {userId, planId, paymentAmount?, vatPercentage?, couponCode?}: the document a payment would produce (Quote). */
    quote: 'subscription/quote',
    /** DELETE: Active with a provider subscription id → cancelled at the provider, then Canceled. */
    cancel: (id: number | string) => `subscription/cancel/${id}`,
    /** POST {planId, when, preview} (issue 30): a plan change's figures, or the change made. */
    changePlan: (id: number | string) => `subscription/changePlan/${id}`,
    /** POST (issue 30): cancels the scheduled plan change (the provider reverted first). */
    cancelPlanChange: (id: number | string) => `subscription/cancelPlanChange/${id}`,
    /** PUT: NotActive → BankTransferPending (irreversible); e-mails the transfer instructions. */
    setPaymentWithBankTransfer: (id: number | string) => `subscription/setPaymentWithBankTransfer/${id}`,
    /** PUT: BankTransferPending → ActiveNoRenewal, once approved transfers cover the amount due. */
    setActiveNoRenewal: (id: number | string) => `subscription/setActiveNoRenewal/${id}`,
    /** GET: `data` = BankTransferInstructions of the subscription's first payment. */
    bankTransferInstructions: (id: number | string) => `subscription/bankTransferInstructions/${id}`,
    /** POST {periods 1–12, entitlements 'keep'|'suspend'} (issue 30, 'Sospendi incasso'): `data` = SubscriptionPause. */
    pause: (id: number | string) => `subscription/pause/${id}`,
    /** POST (issue 30, 'Riprendi ora'): `data = { nextBillingDate }`. */
    resume: (id: number | string) => `subscription/resume/${id}`,
    /** GET: the subscription's one-off charges; POST {description, quantity, unitPrice, collect}: one added (issue 30). */
    charges: (id: number | string) => `subscription/charges/${id}`,
    /** DELETE: a pending one-off charge. */
    deleteCharge: (id: number | string, chargeId: number | string) =>
      `subscription/charges/${id}/${chargeId}`,
    syncPaypal: 'subscription/sync-paypal',
    syncStripe: 'subscription/sync-stripe',
    /** POST {planId, email, name?} (app key): e-mails a confirmation link; `data = { confirmationSent: true }`. */
    subscribe: 'subscription/subscribe',
    /** POST {token} (app key): the link opened; creates customer, subscription, payment; `data.paymentUrl`. */
    subscribeConfirm: 'subscription/subscribe/confirm',
    /** POST {couponCode, preview?} (Admin, issue 30): 'Applica coupon' from the next payment; `data` = CouponQuote. */
    applyCoupon: (id: number | string) => `subscription/applyCoupon/${id}`,
  },
  bankTransfer: {
    /** GET ?paymentId=&page=1&pageSize=100 */
    getAll: 'BankTransfer/getAll',
    create: 'BankTransfer/create',
    update: 'BankTransfer/update',
    remove: (id: number | string) => `BankTransfer/delete/${id}`,
  },
  paymentToken: {
    create: 'PaymentToken/create',
    validate: 'PaymentToken/validate',
  },
  payment: {
    updatePayment: 'Payment/updatePayment',
    /** POST {token} (public): a Stripe Checkout Session (subscription mode) for the token; `data.url`. */
    stripeCheckout: 'Payment/stripe/checkout',
    /** PUT {sessionId, tenantId} (public): the session confirmed with Stripe, then as updatePayment. */
    stripeConfirm: 'Payment/stripe/confirm',
    /** POST {token, couponCode, preview?} (public, issue 30): the link's payment discounted; `data` = CouponQuote. */
    coupon: 'Payment/coupon',
  },
  invoice: {
    /** GET (Admin): the payments waiting for an invoice, per payment and by customer (InvoiceIssues). */
    issues: 'invoice/issues',
    /** POST (Admin): the payment's invoice, if its data are complete now. */
    retry: (paymentId: number | string) => `invoice/retry/${paymentId}`,
    /** POST (Admin): the invoices of all the customer's waiting payments. */
    retryCustomer: (userId: number | string) => `invoice/retryCustomer/${userId}`,
    /** GET ?year=AAAA (Admin): the bollo per quarter for the F24 (StampDutySummary). */
    stampDuty: 'invoice/stampDuty',
  },
  collection: {
    /**
     * GET / PUT (Admin): the tenant's ladder and its e-mails (CollectionSettings,
     * collectionSettingsSchema; `emails` optional on PUT).
     */
    settings: 'collection/settings',
    /** POST {step, subject, body, method, day?, graceDays?} (Admin): CollectionPreview. */
    settingsPreview: 'collection/settings/preview',
    /** GET ?page&pageSize&filters[bucket]=&searchTerm= (Admin): OverdueList. */
    overdue: 'collection/overdue',
    /** GET ?format=csv|xlsx (Admin): the same rows as a file. */
    overdueExport: 'collection/overdue/export',
    /** POST (Admin): 'Sollecita ora'. */
    remind: (paymentId: number | string) => `collection/remind/${paymentId}`,
    /** POST {amount, approvalDate, note?} (Admin): 'Segna come pagato'. */
    markPaid: (paymentId: number | string) => `collection/markPaid/${paymentId}`,
    /** GET (Admin): { dueDate, collectionStatus, events: CollectionEvent[] }. */
    payment: (paymentId: number | string) => `collection/payment/${paymentId}`,
  },
  dashboard: {
    /** GET: `data` = DashboardSummary (contract/schemas/dashboard.ts); Admin, SuperAdmin. */
    summary: 'dashboard/summary',
  },
  hangfire: {
    /** GET: counters of the job engine (SuperAdmin). */
    stats: 'hangfire/stats',
    /** GET: recent jobs, newest first (SuperAdmin). */
    recent: 'hangfire/recent',
    /** GET: the recurring jobs and their cron (SuperAdmin). */
    recurring: 'hangfire/recurring',
    /** POST: enqueue a recurring job now (SuperAdmin). */
    trigger: (key: string) => `hangfire/trigger/${encodeURIComponent(key)}`,
    /** POST: a failed job back to its queue (SuperAdmin). */
    retry: (id: string) => `hangfire/retry/${encodeURIComponent(id)}`,
  },
  tenantList: 'tenant/getAll',
  health: 'health',
  contact: 'contact',
} as const;
