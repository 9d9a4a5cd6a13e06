/** The whole schema: drizzle-kit reads this file, and the client factory passes it to drizzle. */
export * from './tenants';
export * from './geography';
export * from './users';
export * from './addresses';
export * from './plans';
export * from './payment-providers';
export * from './billing';
export * from './payments-provider';
export * from './contact';
export * from './meta';
export * from './invoices';
export * from './dashboard';
export * from './integrations';
export * from './widget';
export * from './tenancy';
export * from './paypal-coupons';
export * from './stripe-checkout';
