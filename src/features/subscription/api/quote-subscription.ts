/**
 * `POST api/subscription/quote` (api-contract 'Fiscal profiles'): the document a payment would
 * produce for this customer, plan and price (lines, cassa, VAT, bollo, ritenuta, net to pay),
 * before anything is created. A read: it changes nothing on the server.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/api-paths';
import type { Quote } from '../../../../contract/invoice/quote';
import type { SubscriptionQuoteInput } from '../../../../contract/schemas/subscription';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { SUBSCRIPTION } from './subscription-queries';

export function quoteSubscription(body: SubscriptionQuoteInput, tenantId: number | null) {
  return unwrap<Quote>(http.post(apiPaths.subscription.quote, body, { tenantId }));
}

/**
 * The quote of what the form says, refreshed as it changes (the last one stays on screen while the
 * next loads); none until a customer and a plan are chosen. A refused quote shows nothing: the
 * form's own checks say what is wrong.
 */
export function useSubscriptionQuote(input: SubscriptionQuoteInput | null) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, SUBSCRIPTION), 'quote', input],
    queryFn: () => quoteSubscription(input!, tenantId),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
