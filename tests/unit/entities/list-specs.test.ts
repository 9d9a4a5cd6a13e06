/**
 * Every SPA resource with a list takes its columns and filters from its contract list spec
 * (contract/lists), the one the server reads: same objects, same Italian headers.
 */
import { describe, expect, it } from 'vitest';
import type { AnyListSpec } from '../../../contract/lists/list-spec';
import { addressList } from '../../../contract/lists/address';
import { featureList } from '../../../contract/lists/feature';
import { invoiceList } from '../../../contract/lists/invoice';
import { municipalityList } from '../../../contract/lists/municipality';
import { paymentProviderList } from '../../../contract/lists/payment-provider';
import { planFeatureList } from '../../../contract/lists/plan-feature';
import { planList } from '../../../contract/lists/plan';
import { provinceList } from '../../../contract/lists/province';
import { regionList } from '../../../contract/lists/region';
import { subscriptionList } from '../../../contract/lists/subscription';
import { tenantList } from '../../../contract/lists/tenant';
import { userList } from '../../../contract/lists/user';
import type { ResourceDef } from '../../../src/lib/resource';
import { addressResource } from '../../../src/entities/address/address.resource';
import { featureResource } from '../../../src/entities/feature/feature.resource';
import { invoiceResource } from '../../../src/entities/invoice/invoice.resource';
import { municipalityResource } from '../../../src/entities/municipality/municipality.resource';
import { paymentProviderResource } from '../../../src/entities/payment-provider/payment-provider.resource';
import { planFeatureResource } from '../../../src/entities/plan-feature/plan-feature.resource';
import { planResource } from '../../../src/entities/plan/plan.resource';
import { provinceResource } from '../../../src/entities/province/province.resource';
import { regionResource } from '../../../src/entities/region/region.resource';
import { subscriptionResource } from '../../../src/entities/subscription/subscription.resource';
import { tenantResource } from '../../../src/entities/tenant/tenant.resource';
import { userResource } from '../../../src/entities/user/user.resource';

const resources: [string, ResourceDef, AnyListSpec][] = [
  ['address', addressResource, addressList],
  ['feature', featureResource, featureList],
  ['invoice', invoiceResource, invoiceList],
  ['municipality', municipalityResource, municipalityList],
  ['paymentprovider', paymentProviderResource, paymentProviderList],
  ['planfeature', planFeatureResource, planFeatureList],
  ['plan', planResource, planList],
  ['province', provinceResource, provinceList],
  ['region', regionResource, regionList],
  ['subscription', subscriptionResource, subscriptionList],
  ['tenant', tenantResource, tenantList],
  ['user', userResource, userList],
];

describe.each(resources)('the %s resource', (name, resource, spec) => {
  it('has its name and shows the spec’s columns with the spec’s headers', () => {
    expect(resource.name).toBe(name);
    expect(resource.columns).toBe(spec.columns);
    expect(resource.columns.map((c) => c.name)).toEqual(spec.columns.map((c) => c.name));
  });

  it('offers the spec’s filters', () => {
    expect(resource.filters).toBe(spec.filters);
  });
});
