/**
 * The preview of one of the ladder's e-mails: POST api/collection/settings/preview, rendered by
 * the server's own templates for a sample payment. Asked again only after the texts have been
 * still for a moment (debounced); the last answer stays on screen meanwhile.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { CollectionPreview, CollectionPreviewInput } from '../../../../contract/schemas/collection';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';
import { queryKeys } from '../../../lib/query-keys';
import { useSelectedTenantId } from '../../../lib/tenant-store';
import { COLLECTION, collectionPaths } from './collection-queries';

export const PREVIEW_DEBOUNCE_MS = 350;

/** `value`, once it has not changed for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
    // The value's content, not its identity: a new object with the same texts is no change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ms]);
  return settled;
}

/** The e-mail as the customer would receive it; `input` null (texts in error): nothing asked. */
export function useEmailPreview(input: CollectionPreviewInput | null) {
  const tenantId = useSelectedTenantId();
  const settled = useDebounced(input, PREVIEW_DEBOUNCE_MS);
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, COLLECTION), 'preview', settled],
    queryFn: () =>
      unwrap<CollectionPreview>(http.post(collectionPaths.settingsPreview, settled, { tenantId })),
    enabled: tenantId !== null && settled !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    meta: { logLabel: 'Anteprima dell’e-mail non preparata:' },
  });
}
