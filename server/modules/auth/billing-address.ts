import { eq } from 'drizzle-orm';
import { serverMessages } from '../../../contract/messages';
import type { UserInputParsed } from '../../../contract/schemas/user';
import { validationMessages } from '../../../contract/validation/italian';
import type { Executor } from '../../db/client';
import { municipalities, provinces, regions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';

/** The billing columns of a membership (user_tenants). */
export interface BillingColumns {
  billingStreet: string | null;
  billingZip: string | null;
  billingRegionId: number | null;
  billingProvinceId: number | null;
  billingMunicipalityId: number | null;
}

type BillingInput = Pick<
  UserInputParsed,
  'street' | 'zip' | 'region' | 'province' | 'municipality' | 'billingAddress'
>;

/**
 * The flat address keys, or, when none of them was sent, the nested `billingAddress` of a record
 * read with GetById and sent back (a round trip changes nothing).
 */
function flatAddress(input: BillingInput): Omit<BillingInput, 'billingAddress'> {
  const flat = [input.street, input.zip, input.region, input.province, input.municipality];
  const a = input.billingAddress;
  if (!a || flat.some((v) => v !== undefined)) return input;
  return {
    street: a.street,
    zip: a.zip,
    region: a.regionId,
    province: a.provinceId,
    municipality: a.municipalityId,
  };
}

/**
 * Checks that the municipality lies in the province and the province in the region (400 with
 * Italian messages otherwise) and fills in a missing parent from its child, so the stored
 * address is always consistent: a municipality alone also records its province and region.
 */
export async function resolveBillingAddress(db: Executor, sent: BillingInput): Promise<BillingColumns> {
  const input = flatAddress(sent);
  let regionId = input.region ?? null;
  let provinceId = input.province ?? null;
  const municipalityId = input.municipality ?? null;
  const errors: string[] = [];

  if (municipalityId !== null) {
    const [m] = await db
      .select({ provinceId: municipalities.provinceId })
      .from(municipalities)
      .where(eq(municipalities.id, municipalityId));
    if (!m) errors.push(`municipality: ${serverMessages.unknownReference}`);
    else if (provinceId !== null && provinceId !== m.provinceId)
      errors.push(`municipality: ${validationMessages.municipalityNotInProvince}`);
    else provinceId = m.provinceId;
  }
  if (provinceId !== null && errors.length === 0) {
    const [p] = await db
      .select({ regionId: provinces.regionId })
      .from(provinces)
      .where(eq(provinces.id, provinceId));
    if (!p) errors.push(`province: ${serverMessages.unknownReference}`);
    else if (regionId !== null && regionId !== p.regionId)
      errors.push(`province: ${validationMessages.provinceNotInRegion}`);
    else regionId = p.regionId;
  }
  if (regionId !== null && errors.length === 0) {
    const [r] = await db.select({ id: regions.id }).from(regions).where(eq(regions.id, regionId));
    if (!r) errors.push(`region: ${serverMessages.unknownReference}`);
  }
  if (errors.length > 0) throw new HttpError(400, serverMessages.validation, { errors });

  return {
    billingStreet: input.street ?? null,
    billingZip: input.zip ?? null,
    billingRegionId: regionId,
    billingProvinceId: provinceId,
    billingMunicipalityId: municipalityId,
  };
}
