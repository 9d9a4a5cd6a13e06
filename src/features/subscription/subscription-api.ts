/**
 * The billing calls of the subscription screens (api-contract 'Billing calls'): actions, payment
 * token, bank-transfer instructions and the bank transfers of a payment. Keys start with the tenant
 * (query-keys.ts); every write refreshes that tenant's subscriptions.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiPaths } from '../../../contract/api-paths';
import { Role, type RoleId } from '../../../contract/enums';
import type { Envelope, Paged } from '../../../contract/envelope';
import type {
  BankTransfer,
  BankTransferInstructions,
  Subscription,
} from '../../../contract/schemas/subscription';
import { subscriptionActions, type SubscriptionAction } from '../../../contract/subscription-status';
import { paymentUrlOf } from '../../../contract/schemas/payment';
import { failureEnvelope, unwrap } from '../../lib/entity-hooks';
import { http } from '../../lib/http';
import { queryKeys } from '../../lib/query-keys';
import { useSelectedTenantId } from '../../lib/tenant-store';

export const SUBSCRIPTION = 'subscription';
export const BANK_TRANSFER = 'bankTransfer';
/** Spec §7: bank transfers load with page 1, size 100. */
export const BANK_TRANSFER_PAGE_SIZE = 100;

const knownActions: readonly SubscriptionAction[] = [
  'paymentLink',
  'setBankTransfer',
  'manageBankTransfers',
  'confirmActivation',
  'cancel',
];

/**
 * What the caller may do with a subscription now: the server's `allowedActions` when it sends
 * them, else the contract's state machine (so the SPA works with any server honouring the
 * contract). A User never gets actions.
 */
export function actionsOf(sub: Partial<Subscription>, role: RoleId | null): SubscriptionAction[] {
  if (role !== Role.Admin && role !== Role.SuperAdmin) return [];
  if (Array.isArray(sub.allowedActions)) return knownActions.filter((a) => sub.allowedActions!.includes(a));
  const first = sub.payments?.[0] ?? null;
  return subscriptionActions(
    { subscriptionStatus: Number(sub.subscriptionStatus), firstPayment: first },
    role,
  );
}

/** The first message of a failed call (server message, else its first error), or `fallback`. */
export function failureMessage(error: unknown, fallback: string): string {
  const env = failureEnvelope(error);
  if (env && typeof env.message === 'string' && env.message.trim()) return env.message;
  if (env && Array.isArray(env.errors) && env.errors.length > 0) return String(env.errors[0]);
  return fallback;
}

/**
 * The server's field errors ('amount: L’importo …') split by field (prefix removed), for the
 * `keys` the form shows; anything else is a general message.
 */
export function splitFieldErrors(
  error: unknown,
  keys: readonly string[],
): { fields: Record<string, string>; general: string[] } {
  const env = failureEnvelope(error);
  const list = env && Array.isArray(env.errors) && env.errors.length > 0 ? env.errors.map(String) : [];
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const text of list) {
    const m = /^\s*([A-Za-z][\w.]*)\s*:\s*(.+)$/s.exec(text);
    const key = m ? keys.find((k) => k.toLowerCase() === m[1]!.toLowerCase()) : undefined;
    if (m && key) fields[key] ??= m[2]!.trim();
    else general.push(text);
  }
  if (list.length === 0 && env && typeof env.message === 'string' && env.message.trim())
    general.push(env.message);
  return { fields, general };
}

/** Refreshes every subscription query of the tenant (lists, details, instructions). */
export function useInvalidateSubscriptions() {
  const client = useQueryClient();
  const tenantId = useSelectedTenantId();
  return useCallback(
    () => client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, SUBSCRIPTION) }),
    [client, tenantId],
  );
}

export const subscriptionCalls = {
  createPaymentToken: async (paymentId: number, tenantId: number | null) => {
    const data = await unwrap<{ token: string }>(
      http.post<Envelope<{ token: string }>>(apiPaths.paymentToken.create, { paymentId }, { tenantId }),
    );
    if (!data?.token) throw new Error('token mancante nella risposta');
    return paymentUrlOf(window.location.origin, data.token);
  },
  /** POST sync-paypal: `data` = how many subscriptions changed. */
  syncPaypal: async (tenantId: number | null) =>
    Number(await unwrap<number>(http.post(apiPaths.subscription.syncPaypal, {}, { tenantId }))),
  /** POST sync-stripe: `data` = how many subscriptions changed. */
  syncStripe: async (tenantId: number | null) =>
    Number(await unwrap<number>(http.post(apiPaths.subscription.syncStripe, {}, { tenantId }))),
  setPaymentWithBankTransfer: (id: number, tenantId: number | null) =>
    unwrap<Subscription>(http.put(apiPaths.subscription.setPaymentWithBankTransfer(id), {}, { tenantId })),
  setActiveNoRenewal: (id: number, tenantId: number | null) =>
    unwrap<Subscription>(http.put(apiPaths.subscription.setActiveNoRenewal(id), {}, { tenantId })),
  cancel: (id: number, tenantId: number | null) =>
    unwrap<Subscription>(http.delete(apiPaths.subscription.cancel(id), { tenantId })),
  saveBankTransfer: (
    body: { id?: number; paymentId: number; amount: number; approvalDate: string | null },
    tenantId: number | null,
  ) =>
    body.id
      ? unwrap<BankTransfer>(http.put(apiPaths.bankTransfer.update, body, { tenantId }))
      : unwrap<BankTransfer>(http.post(apiPaths.bankTransfer.create, body, { tenantId })),
  deleteBankTransfer: (id: number, tenantId: number | null) =>
    unwrap<unknown>(http.delete(apiPaths.bankTransfer.remove(id), { tenantId })),
};

export function useBankTransferInstructions(subscriptionId: number) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, SUBSCRIPTION), 'bankTransferInstructions', subscriptionId],
    queryFn: () =>
      unwrap<BankTransferInstructions>(
        http.get(apiPaths.subscription.bankTransferInstructions(subscriptionId), { tenantId }),
      ),
    retry: false,
  });
}

export function bankTransfersKey(tenantId: number | null, paymentId: number) {
  return queryKeys.list(tenantId, BANK_TRANSFER, {
    page: 1,
    pageSize: BANK_TRANSFER_PAGE_SIZE,
    filters: { paymentId },
  });
}

export function useBankTransfers(paymentId: number | null) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: bankTransfersKey(tenantId, paymentId ?? 0),
    queryFn: async () => {
      const data = await unwrap<Paged<BankTransfer>>(
        http.get(apiPaths.bankTransfer.getAll, {
          params: { paymentId, page: 1, pageSize: BANK_TRANSFER_PAGE_SIZE },
          tenantId,
        }),
      );
      return { items: data?.items ?? [], totalCount: data?.totalCount ?? 0 };
    },
    enabled: paymentId !== null,
    retry: false,
  });
}
