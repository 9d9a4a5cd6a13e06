/**
 * A plan change on a subscription PayPal charges, waiting for the customer's approval on PayPal
 * (issue 30): the new plan, what PayPal will charge and the link 'Approva il nuovo piano su PayPal'.
 * Back from PayPal (`?paypalPlanChange={id}`), the subscription is read back once, so the change is
 * confirmed without waiting for PayPal's webhook.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { apiPaths } from '../../../contract/api-paths';
import type { Subscription } from '../../../contract/schemas/subscription';
import { unwrap } from '../../lib/entity-hooks';
import { formatCurrency } from '../../lib/formatters';
import { http } from '../../lib/http';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { useSelectedTenantId } from '../../lib/tenant-store';

export function PayPalPlanChangeApproval({ s }: { s: Subscription }) {
  const tenantId = useSelectedTenantId();
  const queryClient = useQueryClient();
  const checked = useRef(false);
  const approval = s.paypalPlanChangeApproval ?? null;
  const { search } = useLocation();

  useEffect(() => {
    const params = new URLSearchParams(search);
    if (!approval || checked.current || params.get('paypalPlanChange') !== String(s.id)) return;
    checked.current = true;
    void unwrap<{ approved: boolean }>(http.post(apiPaths.user.myPayPalPlanChange(s.id), {}, { tenantId }))
      .then(async (r) => {
        if (!r?.approved) return;
        notify.success(`Nuovo piano ${approval.planName} approvato: vale dai prossimi addebiti PayPal.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'subscription') });
      })
      .catch(() => undefined);
  }, [approval, search, s.id, tenantId, queryClient]);

  if (!approval) return null;
  const withCoupon = approval.amount !== approval.fullAmount;
  return (
    <div
      className="mt-3 rounded-lg border border-amber-200 bg-amber-50/60 p-3"
      data-testid="area-paypal-plan-change"
    >
      <p className="text-sm font-medium text-amber-900">
        Nuovo piano in attesa della tua approvazione: {approval.planName}
      </p>
      <p className="mt-1 text-sm text-slate-700">
        {withCoupon
          ? `Pagherai ${formatCurrency(approval.amount)} a periodo finché vale il coupon, poi ${formatCurrency(approval.fullAmount)}.`
          : `Pagherai ${formatCurrency(approval.amount)} a periodo.`}{' '}
        Il tuo abbonamento si rinnova con PayPal: finché non approvi il nuovo piano su PayPal, PayPal continua
        ad addebitare il piano precedente.
      </p>
      <a className="btn-primary mt-2 inline-flex min-h-11 items-center" href={approval.approveUrl}>
        Approva il nuovo piano su PayPal
      </a>
    </div>
  );
}
