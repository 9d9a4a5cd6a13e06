/**
 * A coupon the Admin applied on a subscription PayPal charges, waiting for the customer's approval
 * on PayPal (issue 30): the discounted and full amounts and the link 'Approva lo sconto su PayPal'.
 * Back from PayPal (`?paypalCoupon={id}`), the subscription is read back once, so the coupon is
 * applied without waiting for PayPal's webhook.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { apiPaths } from '../../../contract/api-paths';
import { couponPeriodsText } from '../../../contract/schemas/coupon-apply';
import type { Subscription } from '../../../contract/schemas/subscription';
import { unwrap } from '../../lib/entity-hooks';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { http } from '../../lib/http';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { useSelectedTenantId } from '../../lib/tenant-store';

export function PayPalCouponApproval({ s }: { s: Subscription }) {
  const tenantId = useSelectedTenantId();
  const queryClient = useQueryClient();
  const checked = useRef(false);
  const approval = s.paypalCouponApproval ?? null;
  const { search } = useLocation();

  useEffect(() => {
    const params = new URLSearchParams(search);
    if (!approval || checked.current || params.get('paypalCoupon') !== String(s.id)) return;
    checked.current = true;
    void unwrap<{ redeemed: boolean }>(http.post(apiPaths.user.myPayPalCoupon(s.id), {}, { tenantId }))
      .then(async (r) => {
        if (!r?.redeemed) return;
        notify.success(`Sconto ${approval.code} approvato: vale dai prossimi addebiti PayPal.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'subscription') });
      })
      .catch(() => undefined);
  }, [approval, search, s.id, tenantId, queryClient]);

  if (!approval) return null;
  return (
    <div
      className="mt-3 rounded-lg border border-amber-200 bg-amber-50/60 p-3"
      data-testid="area-paypal-coupon"
    >
      <p className="text-sm font-medium text-amber-900">
        Sconto in attesa della tua approvazione: coupon <span className="font-mono">{approval.code}</span>
      </p>
      <p className="mt-1 text-sm text-slate-700">
        Pagherai {formatCurrency(approval.amount)} invece di {formatCurrency(approval.fullAmount)}{' '}
        {couponPeriodsText(approval.periods, false)}. Il tuo abbonamento si rinnova con PayPal: lo sconto vale
        solo dopo che lo approvi su PayPal.
        {approval.expiresAt ? ` Puoi approvarlo entro il ${formatDate(approval.expiresAt)}.` : null}
      </p>
      <a className="btn-primary mt-2 inline-flex min-h-11 items-center" href={approval.approveUrl}>
        Approva lo sconto su PayPal
      </a>
    </div>
  );
}
