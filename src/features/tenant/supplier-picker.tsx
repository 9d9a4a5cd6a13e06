import { useId } from 'react';
import { customerAreaMessages as m } from '../../../contract/messages';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { useSwitchTenant } from './use-switch-tenant';
import { useTenantList } from './use-tenant-list';

/**
 * A customer's 'Fornitore' in the top bar (issue 28): for a customer of several sellers, a native
 * select of whose area is open (the phone's own picker is the most usable there). Nothing for a
 * customer of one seller.
 */
export default function SupplierPicker() {
  const { data: tenants } = useTenantList();
  const tenantId = useSelectedTenantId();
  const switchTenant = useSwitchTenant();
  const selectId = useId();
  if (!tenants || tenants.length < 2) return null;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={selectId} className="hidden text-xs font-medium text-slate-500 md:inline">
        {m.supplier}
      </label>
      <select
        id={selectId}
        aria-label={m.supplier}
        className="input w-36 py-1.5 text-sm sm:w-56"
        value={tenantId === null ? '' : String(tenantId)}
        onChange={(e) => {
          const next = tenants.find((t) => String(t.id) === e.target.value);
          if (next) void switchTenant(next);
        }}
      >
        {tenants.map((t) => (
          <option key={t.id} value={String(t.id)}>
            {t.name}
          </option>
        ))}
      </select>
    </div>
  );
}
