import { useId } from 'react';
import { messages } from '../../../contract/messages';
import { useSelectedTenantId } from '../../lib/tenant-store';
import TenantSelect from './tenant-select';
import { useSwitchTenant } from './use-switch-tenant';
import { useTenantList } from './use-tenant-list';

/** SuperAdmin only: the compact tenant selector of the top bar (spec §2, §6). */
export default function TenantTopBarSelector() {
  const { data: tenants, isPending } = useTenantList();
  const tenantId = useSelectedTenantId();
  const switchTenant = useSwitchTenant();
  const inputId = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={inputId} className="text-xs font-medium whitespace-nowrap text-slate-500">
        {messages.tenant.current}
      </label>
      <div className="w-52 lg:w-60">
        <TenantSelect
          inputId={inputId}
          tenants={tenants ?? []}
          isLoading={isPending}
          value={tenantId}
          onSelect={(t) => void switchTenant(t)}
          compact
        />
      </div>
    </div>
  );
}
