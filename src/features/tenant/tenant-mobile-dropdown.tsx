import { useEffect, useId, useRef, type RefObject } from 'react';
import { messages } from '../../../contract/messages';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { useSwitchTenant } from './use-switch-tenant';
import { useTenantList } from './use-tenant-list';

const NONE = '';

/**
 * SuperAdmin only, small screens: a bottom bar with the current tenant's name or
 * 'nessuna tenant selezionata' (spec §2). A native select: the phone's own picker is the most
 * usable dropdown there.
 */
export default function TenantMobileDropdown() {
  const { data: tenants, isPending } = useTenantList();
  const tenantId = useSelectedTenantId();
  const switchTenant = useSwitchTenant();
  const selectId = useId();
  const current = tenants?.find((t) => t.id === tenantId);
  const barRef = useRef<HTMLDivElement>(null);
  useReserveBottomSpace(barRef);

  return (
    <div
      ref={barRef}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 px-4 pt-3 pb-[calc(0.75rem+env(safe-area-inset-bottom))] shadow-[0_-4px_16px_-8px_rgb(15_23_42/0.2)] backdrop-blur md:hidden"
    >
      <div className="flex items-center gap-3">
        <label htmlFor={selectId} className="shrink-0 text-xs font-medium text-slate-500">
          {messages.tenant.current}
        </label>
        <select
          id={selectId}
          className="input py-1.5"
          value={current ? String(current.id) : NONE}
          disabled={isPending}
          onChange={(e) => {
            const next = tenants?.find((t) => String(t.id) === e.target.value);
            if (next) void switchTenant(next);
          }}
        >
          {!current && (
            <option value={NONE} disabled>
              {isPending ? messages.tenant.loading : messages.tenant.none}
            </option>
          )}
          {(tenants ?? []).map((t) => (
            <option key={t.id} value={String(t.id)}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** The CSS variable the root layout's <main> adds to its bottom padding (0 when no bar shows). */
export const BOTTOM_BAR_VAR = '--tenant-bar-height';

/**
 * Publishes the bar's real height (0 while it is hidden, e.g. from md up) as a CSS variable, so
 * the page's last lines can scroll clear of it at any font size or safe-area inset.
 */
function useReserveBottomSpace(ref: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const el = ref.current;
    const root = document.documentElement;
    if (!el) return;
    const publish = () => root.style.setProperty(BOTTOM_BAR_VAR, `${el.offsetHeight}px`);
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(el);
    window.addEventListener('resize', publish);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', publish);
      root.style.removeProperty(BOTTOM_BAR_VAR);
    };
  }, [ref]);
}
