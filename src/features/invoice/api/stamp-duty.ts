/** 'Imposta di bollo (F24)' (Admin): GET invoice/stampDuty?year=AAAA, the four quarters of a year. */
import { useQuery } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { StampDutySummary } from '../../../../contract/schemas/invoice';
import { http } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';
import { serverMessageOr } from '../../../lib/http-errors';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { INVOICE, invoicePaths } from './invoice-queries';

export const stampDutyText = { loadFailed: 'Riepilogo dell’imposta di bollo non disponibile.' } as const;

export async function fetchStampDuty(year: number): Promise<StampDutySummary | null> {
  const res = await http.get<Envelope<StampDutySummary>>(invoicePaths.stampDuty, { params: { year } });
  return res.data.data ?? null;
}

export function useStampDuty(year: number) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, INVOICE), 'stampDuty', year],
    queryFn: () => fetchStampDuty(year),
    meta: { errorMessage: serverMessageOr(stampDutyText.loadFailed), logLabel: 'Riepilogo del bollo:' },
  });
}
