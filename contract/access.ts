/**
 * Who may do what, per resource: written once, read by the server (the entities' and routes'
 * roles, which it enforces) and by the SPA (`can(resource, action, record?)` in src/lib/access.ts,
 * which only hides what the server would refuse). An absent action is refused to everyone; the
 * value `anyone` means any signed-in person (the server's scope still decides which rows).
 */
import { Role, type RoleId } from './enums';

/** Admin and SuperAdmin: the people who run a tenant's back office. */
export const ADMINS = [Role.SuperAdmin, Role.Admin] as const satisfies readonly RoleId[];
/** The platform's operators only. */
export const SUPER_ADMINS = [Role.SuperAdmin] as const satisfies readonly RoleId[];
/** Any signed-in person (the server's scope decides which rows each sees). */
export const ANYONE = [Role.SuperAdmin, Role.Admin, Role.User] as const satisfies readonly RoleId[];
/** Nobody through this door (e.g. invoices are issued by the billing, never created by hand). */
export const NOBODY = [] as const satisfies readonly RoleId[];

/** The CRUD actions every resource answers, plus the named actions some add. */
export type CrudAction = 'list' | 'read' | 'create' | 'edit' | 'delete';

type Grants = Readonly<Record<string, readonly RoleId[]>>;

function grants<const G extends Record<CrudAction, readonly RoleId[]> & Grants>(g: G): G {
  return g;
}

const adminOnly = { list: ADMINS, read: ADMINS, create: ADMINS, edit: ADMINS, delete: ADMINS } as const;
const referenceData = { list: ANYONE, read: ANYONE, create: ADMINS, edit: ADMINS, delete: ADMINS } as const;

export const access = {
  // A SuperAdmin creates and deletes tenants and runs their databases; an Admin edits their own.
  // The server's reads (getAll included) are anyone's: a User lists the tenants they belong to,
  // id and name only, in the tenant selector; the list screen is staff's.
  tenant: grants({
    list: ADMINS,
    read: ANYONE,
    create: SUPER_ADMINS,
    edit: ADMINS,
    delete: SUPER_ADMINS,
    database: SUPER_ADMINS,
    // The top bar's compact selector of any tenant (spec §2 'Layout': SuperAdmin only).
    switchAny: SUPER_ADMINS,
  }),
  user: grants(adminOnly),
  // Sign-in with a second factor (TOTP): staff set up their own; a SuperAdmin resets another's;
  // an Admin of a tenant that requires it is prompted to set it up.
  twoFactor: grants({
    list: ADMINS,
    read: ADMINS,
    create: ADMINS,
    edit: ADMINS,
    delete: ADMINS,
    reset: SUPER_ADMINS,
    prompt: [Role.Admin],
  }),
  region: grants(referenceData),
  province: grants(referenceData),
  municipality: grants(referenceData),
  // Addresses: a User reads their own (the server's scope), Admins write.
  address: grants(referenceData),
  // The customer area's 'Dati di fatturazione' (issue 28, GET/PUT api/user/me/billing): any member
  // of the tenant reads and saves their own record only (no id travels); nobody lists or deletes.
  customerBilling: grants({ list: NOBODY, read: ANYONE, create: NOBODY, edit: ANYONE, delete: NOBODY }),
  // 'I miei dati' (issue 28, GET api/user/me/data; GDPR art. 15 and 20): anyone signed in
  // downloads what Rinnova holds about themselves, across every tenant; no id travels.
  myData: grants({ list: NOBODY, read: ANYONE, create: NOBODY, edit: NOBODY, delete: NOBODY }),
  // The customer area's screens (issue 28): the home of a User; staff keep their back office.
  // `renewal`: 'Disattiva il rinnovo' / 'Riattiva il rinnovo' of their own subscriptions
  // (api/user/me/subscriptions/…; the server's scope keeps them to their own rows).
  // `pay`: 'Paga ora' on their own subscription's payment due (a fresh link, or the transfer
  // instructions); `paymentMethod`: 'Metodo di pagamento' (the provider's page, or the switch to
  // bank transfer for the next period). Own rows only: another's id is a 404.
  customerArea: grants({
    list: [Role.User],
    read: [Role.User],
    create: NOBODY,
    edit: NOBODY,
    delete: NOBODY,
    renewal: [Role.User],
    pay: [Role.User],
    paymentMethod: [Role.User],
    // 'Cambia piano' of their own subscription, where the tenant allows it (issue 30).
    planChange: [Role.User],
    // 'Sospendi incasso' of their own subscription, where the tenant allows it (issue 30).
    pause: [Role.User],
  }),
  plan: grants(adminOnly),
  planfeature: grants(adminOnly),
  feature: grants(adminOnly),
  // Coupons (issue 30): the 'Coupon' screen is the staff's; customers only type a code.
  coupon: grants(adminOnly),
  // A User lists their own subscriptions; only Admins create, edit and run the billing actions.
  subscription: grants({
    list: ANYONE,
    read: ANYONE,
    create: ADMINS,
    edit: ADMINS,
    delete: NOBODY,
    manage: ADMINS,
  }),
  // Issued by the billing only; a User lists and downloads their own, Admins send and credit them.
  invoice: grants({
    list: ANYONE,
    read: ANYONE,
    create: NOBODY,
    edit: NOBODY,
    delete: NOBODY,
    manage: ADMINS,
  }),
  paymentprovider: grants(adminOnly),
  apikey: grants({ ...adminOnly, limits: SUPER_ADMINS }),
  webhook: grants(adminOnly),
  dashboard: grants({ list: ADMINS, read: ADMINS, create: NOBODY, edit: NOBODY, delete: NOBODY }),
  // Collection of payments (issue 29): 'Incassi in sospeso' (the overdue payments, 'Sollecita ora',
  // 'Segna come pagato') and 'Solleciti' (the tenant's ladder). Payments are created by the
  // billing and never deleted here.
  collection: grants({
    list: ADMINS,
    read: ADMINS,
    create: NOBODY,
    edit: ADMINS,
    delete: NOBODY,
    remind: ADMINS,
    markPaid: ADMINS,
  }),
  hangfire: grants({ list: SUPER_ADMINS, read: SUPER_ADMINS, create: NOBODY, edit: NOBODY, delete: NOBODY }),
} as const;

export type ResourceName = keyof typeof access;
/** The actions a resource answers: the CRUD ones and its named ones. */
export type ActionOf<R extends ResourceName> = keyof (typeof access)[R] & string;

export function isResourceName(name: string): name is ResourceName {
  return Object.hasOwn(access, name);
}

/** The roles allowed `action` on `resource` (empty: nobody). */
export function rolesFor<R extends ResourceName>(resource: R, action: ActionOf<R>): readonly RoleId[] {
  return (access[resource] as Grants)[action] ?? NOBODY;
}

/** Whether `role` may do `action` on `resource` (role-level only: rows are the server's scope). */
export function roleCan<R extends ResourceName>(
  role: RoleId | null | undefined,
  resource: R,
  action: ActionOf<R>,
): boolean {
  return role !== null && role !== undefined && rolesFor(resource, action).includes(role);
}

/**
 * The server's CRUD role record of an entity (server/crud/entity.ts `EntityRoles`). A read open
 * to ANYONE is left out: the server's 'any signed-in person', with no role list on its routes.
 */
export function entityRoles(resource: ResourceName) {
  const g = access[resource] as Grants & Record<CrudAction, readonly RoleId[]>;
  return {
    ...(g.read === ANYONE ? {} : { read: g.read }),
    create: g.create,
    update: g.edit,
    remove: g.delete,
  };
}

/** A customer (role User): the area is theirs and the back office is not shown to them (issue 28). */
export function isCustomer(role: RoleId | null | undefined): boolean {
  return roleCan(role, 'customerArea', 'list');
}
