/** The whole schema: drizzle-kit reads this file, and the client factory passes it to drizzle. */
export * from './tenants';
export * from './geography';
export * from './users';
export * from './contact';
export * from './meta';
