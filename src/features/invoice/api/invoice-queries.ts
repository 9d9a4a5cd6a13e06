/**
 * The invoice screens' reads beyond the generic list (contract: `api/invoice/*`): paths, the
 * payments waiting for data, the tenant's PEC status, an invoice and its PEC sends, and the one
 * refresh every invoice write runs. The writes and downloads are one file each beside this one.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Envelope } from '../../../../contract/envelope';
import { apiPaths } from '../../../../contract/api-paths';
import type { Invoice, InvoiceIssues, InvoiceSend, PecStatus } from '../../../../contract/schemas/invoice';
import { http } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';

export const INVOICE = 'invoice';

/** Invoice calls beyond the generic list (contract: `api/invoice/*`). */
export const invoicePaths = {
  zip: 'invoice/zip',
  issues: apiPaths.invoice.issues,
  retry: apiPaths.invoice.retry,
  retryCustomer: apiPaths.invoice.retryCustomer,
  stampDuty: apiPaths.invoice.stampDuty,
  creditNote: (id: number) => `invoice/creditNote/${id}`,
  send: (id: number) => `invoice/send/${id}`,
  sends: (id: number) => `invoice/sends/${id}`,
  pecStatus: 'invoice/pecStatus',
  byId: (id: number) => `invoice/GetById/${id}`,
  sdiReceipt: 'invoice/sdiReceipt',
} as const;

/** Refreshes every invoice query of the tenant (list, issues, the open invoice and its sends). */
export function useInvalidateInvoices() {
  const client = useQueryClient();
  const tenantId = useSelectedTenantId();
  return useCallback(
    () => client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, INVOICE) }),
    [client, tenantId],
  );
}

export async function fetchIssues(): Promise<InvoiceIssues | null> {
  const res = await http.get<Envelope<InvoiceIssues>>(invoicePaths.issues);
  return res.data.data ?? null;
}

/** Paid payments the SdI data did not allow to invoice, by customer, and the seller's missing data (Admin). */
export function useInvoiceIssues() {
  const tenantId = useSelectedTenantId();
  return useQuery({ queryKey: [...queryKeys.entity(tenantId, INVOICE), 'issues'], queryFn: fetchIssues });
}

export async function fetchPecStatus(): Promise<PecStatus | null> {
  const res = await http.get<Envelope<PecStatus>>(invoicePaths.pecStatus);
  return res.data.data ?? null;
}

export function usePecStatus() {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, INVOICE), 'pecStatus'],
    queryFn: fetchPecStatus,
  });
}

export async function fetchInvoice(id: number): Promise<Invoice | null> {
  const res = await http.get<Envelope<Invoice>>(invoicePaths.byId(id));
  return res.data.data ?? null;
}

export function useInvoice(id: number) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, INVOICE), 'one', id],
    queryFn: () => fetchInvoice(id),
  });
}

export async function fetchSends(id: number): Promise<InvoiceSend[]> {
  const res = await http.get<Envelope<{ items: InvoiceSend[] }>>(invoicePaths.sends(id));
  return res.data.data?.items ?? [];
}

/**
 * The invoice's PEC sends, newest first. While a send queued at `queuedAt` is waiting or under
 * way, they are read again every 2 s (for at most a minute).
 */
export function useInvoiceSends(id: number, queuedAt: number | null) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, INVOICE), 'sends', id],
    queryFn: () => fetchSends(id),
    refetchInterval: (q) => {
      const latest = q.state.data?.[0];
      const waiting =
        queuedAt !== null &&
        Date.now() - queuedAt < 60_000 &&
        (!latest || latest.status === 'sending' || Date.parse(latest.at) < queuedAt - 5_000);
      return waiting ? 2000 : false;
    },
  });
}
