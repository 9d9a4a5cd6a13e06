import { useId } from 'react';
import { customerAreaMessages, messages } from '../../../contract/messages';
import { isCustomer } from '../../../contract/access';
import { logout } from '../../lib/logout';
import { useSession } from '../../lib/session';
import { NoTenantsMessage } from './no-tenants-message';
import TenantSelect, { supplierNoun } from './tenant-select';
import { useSwitchTenant } from './use-switch-tenant';
import { useTenantList } from './use-tenant-list';

/** Signed in without a tenant: every path shows this stand-alone screen (spec §2). */
export default function TenantSelectionScreen() {
  const session = useSession();
  // A customer opens a seller's area: the spec's tenant, in their words (issue 28).
  const customer = isCustomer(session?.user.role);
  const { data: tenants, isPending, isError } = useTenantList();
  const switchTenant = useSwitchTenant();
  const inputId = useId();
  const empty = !isPending && !isError && tenants.length === 0;

  return (
    <main className="relative flex min-h-screen items-center justify-center overflow-hidden bg-slate-50 px-4 py-12">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 left-1/2 h-[28rem] w-[56rem] -translate-x-1/2 brand-glow"
      />
      <section aria-labelledby="tenant-title" className="card relative w-full max-w-md overflow-visible">
        <div className="h-1 rounded-t-xl bg-linear-to-r from-brand-sky via-brand-blue to-brand-indigo" />
        <div className="px-6 py-8 sm:px-8">
          <div className="flex items-center gap-3">
            <img src="/logo.svg" alt="" className="h-10 w-10" />
            <span className="text-lg font-semibold tracking-tight text-slate-900">Rinnova</span>
          </div>
          <h1 id="tenant-title" className="page-title mt-6">
            {customer ? customerAreaMessages.chooseSupplier : 'Scegli il tenant'}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            {customer
              ? customerAreaMessages.chooseSupplierText
              : `Seleziona lo spazio di lavoro in cui operare${session ? `, ${session.user.email}` : ''}.`}
          </p>

          <div className="mt-6">
            {empty ? (
              <NoTenantsMessage />
            ) : (
              <>
                <label htmlFor={inputId} className="label">
                  {customer ? customerAreaMessages.supplier : messages.tenant.current}
                </label>
                <TenantSelect
                  inputId={inputId}
                  tenants={tenants ?? []}
                  isLoading={isPending}
                  value={null}
                  onSelect={(t) => void switchTenant(t)}
                  autoFocus
                  {...(customer ? { noun: supplierNoun } : {})}
                />
                {!customer && (
                  <p className="mt-2 text-xs text-slate-500" aria-live="polite">
                    {isPending ? messages.tenant.loading : messages.tenant.none}
                  </p>
                )}
              </>
            )}
          </div>

          <div className="mt-8 flex justify-end border-t border-slate-100 pt-4">
            <button type="button" className="btn-ghost" onClick={() => void logout()}>
              {messages.layout.logout}
            </button>
          </div>
        </div>
      </section>
    </main>
  );
}
