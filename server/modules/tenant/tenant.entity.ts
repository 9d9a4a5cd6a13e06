import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { Role } from '../../../contract/enums';
import type { Tenant, TenantDatabase } from '../../../contract/schemas/tenant';
import { SDI_PEC_DEFAULT, tenantDatabaseSchema, tenantInputSchema } from '../../../contract/schemas/tenant';
import { SECRET_MASK } from '../../../contract/schemas/payment-provider';
import type { SecretBox } from '../../lib/secret-box';
import { serverMessages } from '../../../contract/messages';
import { HttpError } from '../../lib/http-error';
import { hostRefusal } from '../../lib/outbound';
import { sameHost, secretRetypeMessages } from '../../lib/outbound/provider-hosts';
import { billingValidationMessages, taxRegimes } from '../../../contract/validation/italian';
import {
  pensionFundTypes,
  withholdingTypes,
  type PensionFundType,
} from '../../../contract/invoice/fiscal-document';
import { fromPercentHundredths, toPercentHundredths } from '../../../contract/money';
import { tenants, userTenants } from '../../db/schema';
import type { EntityDefinition } from '../../crud/entity';
import type { UnitOfWorkRunner } from '../../unit-of-work/unit-of-work';
import { byName, windowed } from '../../crud/window';
import { textSort } from '../../crud/sort';
import { entityRoles } from '../../../contract/access';
import { tenantList } from '../../../contract/lists/tenant';
import { bindExport, bindFilters, bindSorts } from '../../crud/list-binding';

const fullTenantItem = z.object({
  id: z.number(),
  name: z.string(),
  configuration: z.string().nullable(),
  legalName: z.string().nullable(),
  vatCode: z.string().nullable(),
  fiscalCode: z.string().nullable(),
  taxRegime: z.enum(taxRegimes),
  pensionFund: z.object({ type: z.enum(pensionFundTypes), rate: z.number() }).nullable(),
  withholdingTax: z.enum(withholdingTypes).nullable(),
  stampDutyToCustomer: z.boolean(),
  ossRegistered: z.boolean(),
  street: z.string().nullable(),
  zip: z.string().nullable(),
  regionId: z.number().nullable(),
  provinceId: z.number().nullable(),
  municipalityId: z.number().nullable(),
  pec: z.string().nullable(),
  iban: z.string().nullable(),
  accountHolder: z.string().nullable(),
  pecSmtpHost: z.string().nullable(),
  pecSmtpPort: z.number().nullable(),
  pecSmtpSecure: z.boolean(),
  pecSmtpUser: z.string().nullable(),
  // Only the mask may leave the server: the password itself cannot slip into an answer.
  pecSmtpPassword: z.literal(SECRET_MASK).nullable(),
  sdiPec: z.string(),
  pecAutoSend: z.boolean(),
  requireTwoFactor: z.boolean(),
  customerPlanChange: z.boolean(),
  customerPause: z.boolean(),
  database: tenantDatabaseSchema.optional(),
});

/**
 * What a User reads of the tenants they belong to: the selector's id and name, never the seller's
 * IBAN, PEC, mail server or configuration (issue 23). Staff read the whole profile.
 */
type TenantView = Tenant | Pick<Tenant, 'id' | 'name'>;
const tenantItem: z.ZodType<TenantView> = z.union([
  fullTenantItem,
  z.object({ id: z.number(), name: z.string() }),
]);

const tenantColumns = {
  id: tenants.id,
  name: tenants.name,
  configuration: tenants.configuration,
  legalName: tenants.legalName,
  vatCode: tenants.vatCode,
  fiscalCode: tenants.fiscalCode,
  taxRegime: tenants.taxRegime,
  pensionFundType: tenants.pensionFundType,
  pensionFundRate: tenants.pensionFundRate,
  withholdingTax: tenants.withholdingTax,
  stampDutyToCustomer: tenants.stampDutyToCustomer,
  ossRegistered: tenants.ossRegistered,
  street: tenants.street,
  zip: tenants.zip,
  regionId: tenants.regionId,
  provinceId: tenants.provinceId,
  municipalityId: tenants.municipalityId,
  pec: tenants.pec,
  iban: tenants.iban,
  accountHolder: tenants.accountHolder,
  pecSmtpHost: tenants.pecSmtpHost,
  pecSmtpPort: tenants.pecSmtpPort,
  pecSmtpSecure: tenants.pecSmtpSecure,
  pecSmtpUser: tenants.pecSmtpUser,
  hasPecPassword: sql<boolean>`${tenants.pecSmtpPasswordEncrypted} is not null`,
  sdiPec: tenants.sdiPec,
  pecAutoSend: tenants.pecAutoSend,
  requireTwoFactor: tenants.requireTwoFactor,
  customerPlanChange: tenants.customerPlanChange,
  customerPause: tenants.customerPause,
};

/**
 * Tenants: a SuperAdmin sees, creates and deletes any; everyone else sees the tenants they
 * belong to (active memberships), and an Admin may update those. Needs no X-Tenant-Id: the tenant selector reads it
 * before a tenant is chosen.
 */
export function tenantEntity(
  box: SecretBox,
  options: {
    /** The outbound guard is on (production): no PEC server on this machine or a private network. */
    guard: boolean;
    /** Where the tenant's database lives and its size: a SuperAdmin's GetById shows it (contract 'Tenancy'). */
    databaseOf?: (tenantId: number) => Promise<TenantDatabase>;
    /** After a tenant's Create or Update committed: its own database made, or its copy of the row refreshed. */
    afterCommit?: (tenantId: number, op: 'create' | 'update') => Promise<void>;
    /**
     * Tells the tenant's modules that its billing profile was saved (after the row, and its copy in
     * the tenant's own database, committed): 'tenant.billingProfileChanged' in a unit of the tenant,
     * so invoicing retries the payments waiting for the seller's data. A failure is logged, never
     * answered: the profile is saved.
     */
    profileSaved?: { uow: UnitOfWorkRunner; log: { warn(details: object, message: string): void } };
  },
): EntityDefinition<typeof tenants, TenantView, typeof tenantInputSchema> {
  return {
    name: 'tenant',
    table: tenants,
    id: tenants.id,
    scope: {
      kind: 'rows',
      filter: (caller, db) =>
        caller.roleId === Role.SuperAdmin
          ? undefined
          : inArray(
              tenants.id,
              db
                .select({ id: userTenants.tenantId })
                .from(userTenants)
                .where(and(eq(userTenants.userId, caller.userId), eq(userTenants.isActive, true))),
            ),
    },
    afterCommit: async (id, op, caller) => {
      await options.afterCommit?.(id, op);
      const saved = options.profileSaved;
      if (op !== 'update' || !saved) return;
      await saved.uow
        .run({ tenantId: id, actor: { kind: 'user', userId: caller.userId, roleId: caller.roleId } }, (w) =>
          w.publish('tenant.billingProfileChanged', { tenantId: id }),
        )
        .catch((error: unknown) =>
          saved.log.warn(
            { tenantId: id, err: error },
            'profilo di fatturazione salvato: nuovo tentativo non riuscito',
          ),
        );
    },
    searchColumns: [tenants.name],
    filters: bindFilters(tenantList, { name: tenants.name }),
    naturalOrder: textSort(tenants.name), // the list's byName order: exports seek on it
    sortable: bindSorts(tenantList, { name: textSort(tenants.name) }),
    item: tenantItem,
    present: (caller, t) => (caller.roleId === Role.User ? { id: t.id, name: t.name } : t),
    detail: async (caller, t) =>
      caller.roleId === Role.SuperAdmin && options.databaseOf
        ? { ...t, database: await options.databaseOf(t.id) }
        : t,
    input: tenantInputSchema,
    label: (t) => t.name,
    list: async (db, window) => {
      const rows = await windowed(
        db
          .select(tenantColumns)
          .from(tenants)
          .orderBy(...byName(tenants.name, tenants.id))
          .$dynamic(),
        window,
      );
      return rows.map(({ hasPecPassword, pensionFundType, pensionFundRate, ...row }) => ({
        ...row,
        taxRegime: row.taxRegime as Tenant['taxRegime'],
        pensionFund:
          pensionFundType && pensionFundRate !== null
            ? { type: pensionFundType as PensionFundType, rate: fromPercentHundredths(pensionFundRate) }
            : null,
        withholdingTax: row.withholdingTax as Tenant['withholdingTax'],
        pecSmtpPassword: hasPecPassword ? SECRET_MASK : null,
      }));
    },
    // Billing-profile keys left out of a body keep their stored value (undefined is not written).
    toRow: (input) => ({
      name: input.name,
      configuration: input.configuration ?? null,
      legalName: input.legalName,
      vatCode: input.vatCode,
      fiscalCode: input.fiscalCode,
      taxRegime: input.taxRegime,
      // The cassa: absent keeps it, null removes it.
      pensionFundType: input.pensionFund === undefined ? undefined : (input.pensionFund?.type ?? null),
      pensionFundRate:
        input.pensionFund === undefined
          ? undefined
          : input.pensionFund
            ? toPercentHundredths(input.pensionFund.rate)
            : null,
      withholdingTax: input.withholdingTax,
      stampDutyToCustomer: input.stampDutyToCustomer,
      ossRegistered: input.ossRegistered,
      street: input.street,
      zip: input.zip,
      regionId: input.regionId,
      provinceId: input.provinceId,
      municipalityId: input.municipalityId,
      pec: input.pec,
      iban: input.iban,
      accountHolder: input.accountHolder,
      pecSmtpHost: input.pecSmtpHost,
      pecSmtpPort: input.pecSmtpPort,
      pecSmtpSecure: input.pecSmtpSecure,
      pecSmtpUser: input.pecSmtpUser,
      // Blank puts back the SdI's default address; absent keeps the stored one.
      sdiPec: input.sdiPec === null ? SDI_PEC_DEFAULT : input.sdiPec,
      pecAutoSend: input.pecAutoSend,
      requireTwoFactor: input.requireTwoFactor,
      customerPlanChange: input.customerPlanChange,
      customerPause: input.customerPause,
    }),
    afterWrite: async (w, id, input, previous) => {
      const [row] = await w.tx
        .select({
          host: tenants.pecSmtpHost,
          taxRegime: tenants.taxRegime,
          withholdingTax: tenants.withholdingTax,
        })
        .from(tenants)
        .where(eq(tenants.id, id));
      const host = row?.host ?? null;
      const errors: string[] = [];
      // A forfettario is not subject to ritenuta (art. 1 c. 67 L. 190/2014): the pair is refused as stored.
      if (row?.taxRegime === 'RF19' && row.withholdingTax)
        errors.push(`withholdingTax: ${billingValidationMessages.forfettarioWithholding}`);
      // Production: not this machine nor a private network, in any spelling (lib/outbound).
      if (options.guard && host !== null && hostRefusal(host) !== null)
        errors.push(`pecSmtpHost: ${secretRetypeMessages.pecHostPrivate}`);
      // The stored password is never sent to a server chosen after it was stored.
      if (
        previous?.pecSmtpPasswordEncrypted &&
        !input.pecSmtpPassword &&
        host !== null &&
        !sameHost(previous.pecSmtpHost, host)
      )
        errors.push(`pecSmtpPassword: ${secretRetypeMessages.pecSmtpPassword}`);
      if (errors.length > 0) throw new HttpError(400, serverMessages.validation, { errors });
      // The PEC password is sealed to the tenant's row (its id known only after the insert).
      if (!input.pecSmtpPassword) return;
      await w.tx
        .update(tenants)
        .set({
          pecSmtpPasswordEncrypted: box.seal(
            input.pecSmtpPassword,
            'tenants.pec_smtp_password_encrypted',
            id,
          ),
        })
        .where(eq(tenants.id, id));
    },
    export: bindExport<TenantView, typeof tenantList>(tenantList, {
      // A User's row holds the id and name only.
      configuration: (t) => ('configuration' in t ? t.configuration : null),
    }),
    // Any signed-in person reads (the scope gives their tenants); a SuperAdmin creates and deletes.
    roles: entityRoles('tenant'),
  };
}
