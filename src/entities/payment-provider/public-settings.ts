/** The public keys of a tenant's active providers (no session, no tenant header): which ways to pay a page offers. */
import { apiPaths } from '../../../contract/api-paths';
import type { PublicProviderSettings } from '../../../contract/schemas/payment-provider';
import { unwrap } from '../../lib/entity-hooks';
import { http } from '../../lib/http';

export function getPublicSettings(tenantId: number) {
  return unwrap<PublicProviderSettings>(
    http.get(apiPaths.paymentProvider.publicSettingsByTenant(tenantId), { tenantId: null }),
  );
}
