import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { roleNameById } from '../../../contract/enums';
import type { RoleId } from '../../../contract/enums';
import type { User } from '../../../contract/schemas/user';
import { defaultWithholdingAgent, userInputSchema } from '../../../contract/schemas/user';
import { municipalities, provinces, regions, users, userTenants } from '../../db/schema';
import type { EntityDefinition, ListWindow } from '../../crud/entity';
import type { Database } from '../../db/client';
import { executeRows } from '../../db/rows';
import { entityRoles } from '../../../contract/access';
import { userList } from '../../../contract/lists/user';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';
import { containsPattern } from '../../crud/list-query';
import { byName, countUpTo, windowed } from '../../crud/window';
import { createUserWrites } from './user-writes';
import type { UserWritesDeps } from './user-writes';
import { textSort } from '../../crud/sort';

const ref = z.object({ id: z.number(), name: z.string() });

/** The answer of every user call. Serialization keeps only these keys: no hash or token can leak. */
const userItem: z.ZodType<User> = z.object({
  id: z.number(),
  name: z.string().nullable(),
  email: z.string(),
  pec: z.string().nullable(),
  phone: z.string().nullable(),
  sdi: z.string().nullable(),
  vatCode: z.string().nullable(),
  fiscalCode: z.string().nullable(),
  countryCode: z.string(),
  billingCity: z.string().nullable(),
  paOfficeCode: z.string().nullable(),
  publicAdministration: z.boolean(),
  cig: z.string().nullable(),
  withholdingAgent: z.boolean(),
  isCompany: z.boolean(),
  isActive: z.boolean(),
  roleId: z.literal([1, 2, 3]),
  roleName: z.enum(['SuperAdmin', 'Admin', 'User']),
  billingAddress: z
    .object({
      street: z.string().nullable(),
      zip: z.string().nullable(),
      regionId: z.number().nullable(),
      region: ref.nullable(),
      provinceId: z.number().nullable(),
      province: ref.extend({ abbreviation: z.string() }).nullable(),
      municipalityId: z.number().nullable(),
      municipality: ref.nullable(),
    })
    .nullable(),
});

/** How many memberships, in name order, a searched select walks before it reads the matches. */
const WALK = 1000;

type OptionRow = { id: number; name: string | null; email: string };

/**
 * The select's page of memberships in name order. Unsearched (or a page of known ids), one walk
 * of the name order index, which carries the label columns and the search text (migration 0016):
 * index-only, stopping at the page. Searched, the walk alone costs what precedes the first match
 * in name order (a term whose matches all sort late, such as a common first name, read 60,000
 * index entries of 100,000 for 20 rows), so:
 * 1. the walk bounded to the first WALK memberships of the tenant: enough when the term is
 *    frequent there (the page is full: these are the first matches in name order);
 * 2. otherwise every match, read through the search text's trigram index, then ordered: what the
 *    term matches is then rare or late, and sorting it costs what the matches are, not the tenant.
 */
async function searchedOptions(db: Database, window: ListWindow): Promise<OptionRow[]> {
  const order = byName(userTenants.name, userTenants.userId);
  const columns = { id: userTenants.userId, name: userTenants.name, email: userTenants.email };
  const ordered = (where: SQL | undefined) =>
    windowed(
      db
        .select(columns)
        .from(userTenants)
        .leftJoin(users, eq(users.id, userTenants.userId))
        .orderBy(...order)
        .$dynamic(),
      { ...window, where },
    );
  if (window.scope === undefined || window.limit === undefined) return ordered(window.where);
  // The WALK-th membership of the tenant in name order: the walk's end (none in a smaller tenant,
  // which step 2 reads whole as cheaply).
  const end = db
    .select({ key: sql`lower(${userTenants.name})`, id: userTenants.userId })
    .from(userTenants)
    .where(window.scope)
    .orderBy(...order)
    .offset(WALK - 1)
    .limit(1);
  const walked = await ordered(
    and(window.where, sql`(lower(${userTenants.name}), ${userTenants.userId}) <= (${end})`),
  );
  if (walked.length === window.limit) return walked;
  const matches = db
    .select(columns)
    .from(userTenants)
    .leftJoin(users, eq(users.id, userTenants.userId))
    .where(window.where);
  return executeRows<OptionRow>(
    db,
    sql`with m as materialized (${matches})
        select m.user_id as id, m.name, m.email from m order by lower(m.name), m.user_id
        limit ${window.limit} offset ${window.offset ?? 0}`,
  );
}

/**
 * The users of a window (ids first, then the page's rows with their joins, in the page's order):
 * the entity's list, and the customer's own record (own-billing.routes.ts).
 */
export async function listUsers(db: Database, window: ListWindow): Promise<User[]> {
  const page = await windowed(
    db
      .select({ id: userTenants.userId })
      .from(userTenants)
      .leftJoin(users, eq(users.id, userTenants.userId))
      .orderBy(...byName(userTenants.name, userTenants.userId))
      .$dynamic(),
    window,
  );
  if (page.length === 0) return [];
  const ids = page.map((p) => p.id);
  const loaded = await db
    .select({
      id: userTenants.userId,
      name: userTenants.name,
      email: users.email,
      pec: userTenants.pec,
      phone: userTenants.phone,
      sdi: userTenants.sdi,
      vatCode: userTenants.vatCode,
      fiscalCode: userTenants.fiscalCode,
      countryCode: userTenants.countryCode,
      billingCity: userTenants.billingCity,
      paOfficeCode: userTenants.paOfficeCode,
      publicAdministration: userTenants.publicAdministration,
      cig: userTenants.cig,
      withholdingAgent: userTenants.withholdingAgent,
      isCompany: userTenants.isCompany,
      isActive: userTenants.isActive,
      roleId: users.roleId,
      street: userTenants.billingStreet,
      zip: userTenants.billingZip,
      regionId: userTenants.billingRegionId,
      region: { id: regions.id, name: regions.name },
      provinceId: userTenants.billingProvinceId,
      province: { id: provinces.id, name: provinces.name, abbreviation: provinces.abbreviation },
      municipalityId: userTenants.billingMunicipalityId,
      municipality: { id: municipalities.id, name: municipalities.name },
    })
    .from(userTenants)
    .innerJoin(users, eq(users.id, userTenants.userId))
    .leftJoin(regions, eq(regions.id, userTenants.billingRegionId))
    .leftJoin(provinces, eq(provinces.id, userTenants.billingProvinceId))
    .leftJoin(municipalities, eq(municipalities.id, userTenants.billingMunicipalityId))
    .where(and(window.where, inArray(userTenants.userId, ids)));
  const byId = new Map(loaded.map((r) => [r.id, r]));
  const rows = ids.flatMap((id) => byId.get(id) ?? []);
  return rows.map((r) => {
    const { street, zip, regionId, region, provinceId, province, municipalityId, municipality } = r;
    const roleId = r.roleId as RoleId;
    const hasAddress = [street, zip, regionId, provinceId, municipalityId].some((v) => v !== null);
    return {
      id: r.id,
      name: r.name,
      email: r.email,
      pec: r.pec,
      phone: r.phone,
      sdi: r.sdi,
      vatCode: r.vatCode,
      fiscalCode: r.fiscalCode,
      countryCode: r.countryCode,
      billingCity: r.billingCity,
      paOfficeCode: r.paOfficeCode,
      publicAdministration: r.publicAdministration,
      cig: r.cig,
      // Stored null: the default by kind (contract/schemas/user.ts).
      withholdingAgent: r.withholdingAgent ?? defaultWithholdingAgent(r),
      isCompany: r.isCompany,
      isActive: r.isActive,
      roleId,
      roleName: roleNameById[roleId],
      billingAddress: hasAddress
        ? { street, zip, regionId, region, provinceId, province, municipalityId, municipality }
        : null,
    };
  });
}

/**
 * Users of the tenant: its members (user_tenants) with the e-mail and role of their identity.
 * `id` is the user's id. Admin and SuperAdmin only; writes in user-writes.ts.
 */
export function userEntity(
  deps: UserWritesDeps,
): EntityDefinition<typeof userTenants, User, typeof userInputSchema> {
  return {
    name: 'user',
    table: userTenants,
    id: userTenants.userId,
    // Read in the tenant's database (its record of each member); written in both: the identity and
    // the membership in the control database (db/members.ts, server/README 'Tenant databases').
    home: 'both',
    scope: { kind: 'tenant', column: userTenants.tenantId },
    searchColumns: [
      userTenants.name,
      users.email,
      userTenants.pec,
      userTenants.phone,
      userTenants.sdi,
      userTenants.vatCode,
      userTenants.fiscalCode,
    ],
    filters: bindFilters(userList, {
      name: userTenants.name,
      email: userTenants.email,
      pec: userTenants.pec,
      phone: userTenants.phone,
      sdi: userTenants.sdi,
      vatCode: userTenants.vatCode,
      isCompany: userTenants.isCompany,
      isActive: userTenants.isActive,
      roleId: users.roleId,
    }),
    naturalOrder: textSort(userTenants.name), // the list's byName order: exports seek on it
    sortable: bindSorts(userList, {
      name: textSort(userTenants.name),
      email: textSort(userTenants.email),
      isCompany: { column: userTenants.isCompany },
      roleName: { column: users.roleId },
      isActive: { column: userTenants.isActive },
    }),
    item: userItem,
    input: userInputSchema,
    label: (u) => (u.name ? `${u.name} (${u.email})` : u.email),
    // Ids first (the memberships' own indexes: a deep page never joins the rows it skips), then
    // the page's rows with their joins, in the page's order.
    list: listUsers,
    // A left join (the same rows: every membership has its user) that PostgreSQL removes when no
    // filter reads the users table, so counting reads only the tenant's memberships.
    count: (db, where, limit) =>
      countUpTo(
        db,
        db
          .select({ one: sql`1` })
          .from(userTenants)
          .leftJoin(users, eq(users.id, userTenants.userId))
          .where(where)
          .$dynamic(),
        limit,
      ),
    // One trigram-indexed column of the membership (name, e-mail, PEC, phone, SDI, VAT), kept by
    // triggers (migration 0005): never an OR across the columns of two tables.
    search: (term) => like(userTenants.searchText, containsPattern(term.toLowerCase())),
    // The membership's own columns (its copy of the e-mail included) on its own indexes: no join
    // in the ordered, limited query. A search runs in two steps (see `searchedOptions`).
    options: async (db, window) => {
      const rows = await searchedOptions(db, window);
      return rows.map((r) => ({ id: r.id, label: r.name ? `${r.name} (${r.email})` : r.email }));
    },
    writes: createUserWrites(deps),
    export: bindExport(userList),
    roles: entityRoles('user'),
  };
}
