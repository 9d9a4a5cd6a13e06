/**
 * The customer area's payment calls (issue 28) on one of the caller's own subscriptions:
 * 'Paga ora' (`POST user/me/subscriptions/{id}/pay`: a fresh payment link or the transfer
 * instructions) and 'Metodo di pagamento' (`.../paymentMethod {action}`: the provider's page, or
 * bank transfer from the next period).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import type {
  PaymentMethodAction,
  PaymentMethodAnswer,
  PayNow,
} from '../../../../contract/schemas/subscription';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { serverMessageOr } from '../../../lib/http-errors';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

/** The answer's data and its Italian message. */
async function post<T>(path: string, body: unknown, tenantId: number | null) {
  const res = await http.post<Envelope<T>>(path, body, { tenantId });
  const data = await unwrap(Promise.resolve(res));
  if (!data) throw new Error('risposta senza dati');
  return { data, message: res.data.message ?? null };
}

/**
 * 'Paga ora': the subscription's payment due, or (issue 30) the extra payment `paymentId` names —
 * a one-off charge's or a proration's, by card where the tenant has Stripe.
 */
export function usePayNow() {
  const tenantId = useSelectedTenantId();
  return useMutation({
    mutationFn: (target: number | { subscriptionId: number; paymentId: number }) =>
      typeof target === 'number'
        ? post<PayNow>(apiPaths.user.myPay(target), {}, tenantId)
        : post<PayNow>(apiPaths.user.myPay(target.subscriptionId), { paymentId: target.paymentId }, tenantId),
    meta: { errorMessage: serverMessageOr('Non è stato possibile preparare il pagamento. Riprova.') },
  });
}

export function usePaymentMethod() {
  const tenantId = useSelectedTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ subscriptionId, action }: { subscriptionId: number; action: PaymentMethodAction }) =>
      post<PaymentMethodAnswer>(apiPaths.user.myPaymentMethod(subscriptionId), { action }, tenantId),
    onSuccess: ({ data }) => {
      // The switch changes the subscription's status and adds the next period's payment.
      if (data.action === 'bankTransfer')
        void client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, 'subscription') });
    },
    meta: { errorMessage: serverMessageOr('Operazione non riuscita. Riprova.') },
  });
}
