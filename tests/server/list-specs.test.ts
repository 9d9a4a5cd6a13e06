/**
 * Each admin entity's list facts are written once, in its contract list spec (contract/lists):
 * the server entity accepts exactly the spec's `filters[key]` (matched as the spec's kind says) and
 * `sort=` keys, writes the spec's export headers and types in the spec's order, and enforces the
 * roles of the contract's access table. No database: the definitions and the pure query builders.
 */
import { describe, expect, it } from 'vitest';
import { entityRoles, type ResourceName } from '../../contract/access';
import type { AnyListSpec } from '../../contract/lists/list-spec';
import { addressList } from '../../contract/lists/address';
import { featureList } from '../../contract/lists/feature';
import { invoiceList } from '../../contract/lists/invoice';
import { municipalityList } from '../../contract/lists/municipality';
import { paymentProviderList } from '../../contract/lists/payment-provider';
import { planFeatureList } from '../../contract/lists/plan-feature';
import { planList } from '../../contract/lists/plan';
import { provinceList } from '../../contract/lists/province';
import { regionList } from '../../contract/lists/region';
import { subscriptionList } from '../../contract/lists/subscription';
import { tenantList } from '../../contract/lists/tenant';
import { userList } from '../../contract/lists/user';
import type { EntityDefinition } from '../../server/crud/entity';
import { filterConditions } from '../../server/crud/list-query';
import { sortOrder } from '../../server/crud/sort';
import { HttpError } from '../../server/lib/http-error';
import { addressEntity } from '../../server/modules/address/address.entity';
import { userEntity } from '../../server/modules/auth/user.entity';
import { subscriptionExport } from '../../server/modules/billing/billing.routes';
import { municipalityEntity } from '../../server/modules/geography/municipality.entity';
import { provinceEntity } from '../../server/modules/geography/province.entity';
import { regionEntity } from '../../server/modules/geography/region.entity';
import { paymentProviderEntity } from '../../server/modules/payment-provider/payment-provider.entity';
import { featureEntity } from '../../server/modules/plan/feature.entity';
import { planFeatureEntity } from '../../server/modules/plan/plan-feature.entity';
import { planEntity } from '../../server/modules/plan/plan.entity';
import { tenantEntity } from '../../server/modules/tenant/tenant.entity';

// The secret box and the user writes' deps are only read by writes, never here.
const unused = {} as never;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEntity = EntityDefinition<any, any, any>;

const entities: [ResourceName, AnyEntity, AnyListSpec][] = [
  ['plan', planEntity, planList],
  ['feature', featureEntity, featureList],
  ['planfeature', planFeatureEntity, planFeatureList],
  ['region', regionEntity, regionList],
  ['province', provinceEntity, provinceList],
  ['municipality', municipalityEntity, municipalityList],
  ['address', addressEntity, addressList],
  ['user', userEntity({ publicUrl: () => 'http://localhost' }), userList],
  ['paymentprovider', paymentProviderEntity(unused, { pinHosts: false }), paymentProviderList],
  ['tenant', tenantEntity(unused, { guard: false }), tenantList],
];

const sorted = (keys: Iterable<string>) => [...keys].sort();
const refused = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    return e instanceof HttpError && e.statusCode === 400;
  }
  return false;
};

describe.each(entities)('the %s entity reads its list spec', (resource, def, spec) => {
  it('accepts exactly the spec’s filter keys, each matched as the spec says', () => {
    expect(sorted(Object.keys(def.filters))).toEqual(sorted(Object.keys(spec.filterKinds)));
    for (const [key, kind] of Object.entries(spec.filterKinds)) {
      expect(def.filters[key]?.kind).toBe(kind);
      expect(refused(() => filterConditions(def.filters, { [key]: '' }))).toBe(false);
    }
    expect(refused(() => filterConditions(def.filters, { notInTheSpec: 'x' }))).toBe(true);
  });

  it('sorts by exactly the spec’s sort keys', () => {
    expect(sorted(Object.keys(def.sortable ?? {}))).toEqual(sorted(spec.sortKeys));
    for (const key of spec.sortKeys) {
      expect(refused(() => sortOrder(def.sortable, key, def.id))).toBe(false);
      expect(refused(() => sortOrder(def.sortable, `-${key}`, def.id))).toBe(false);
    }
    expect(refused(() => sortOrder(def.sortable, 'notInTheSpec', def.id))).toBe(true);
  });

  it('exports the spec’s columns: headers and types in its order, under its file name', () => {
    expect(def.export?.fileName).toBe(spec.export?.fileName);
    expect(def.export?.columns.map(({ header, type }) => ({ header, type }))).toEqual(
      spec.export?.columns.map(({ header, type }) => ({ header, type })),
    );
  });

  it('enforces the access table’s roles', () => {
    expect(def.roles).toEqual(entityRoles(resource));
  });
});

describe('lists served by their own routes read their spec too', () => {
  it('the subscription export writes the spec’s headers and types', () => {
    expect(subscriptionExport.fileName).toBe('sottoscrizioni');
    expect(subscriptionExport.columns.map(({ header, type }) => ({ header, type }))).toEqual(
      subscriptionList.export?.columns.map(({ header, type }) => ({ header, type })),
    );
  });

  it('every spec’s sort keys are its sortable columns’, and its export columns have headers', () => {
    for (const spec of [...entities.map(([, , s]) => s), subscriptionList, invoiceList] as AnyListSpec[]) {
      expect(spec.sortKeys.length).toBe(spec.columns.filter((c) => c.sortable).length);
      for (const column of spec.export?.columns ?? []) expect(column.header).not.toBe('');
    }
  });
});
