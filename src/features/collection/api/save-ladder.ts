/** 'Salva' on 'Solleciti': PUT api/collection/settings with the tenant's ladder and its e-mails. */
import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '../../../../contract/envelope';
import type { CollectionSettings, CollectionSettingsInput } from '../../../../contract/schemas/collection';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { collectionText } from '../collection-text';
import { collectionPaths, useInvalidateCollection } from './collection-queries';

export async function saveLadder(ladder: CollectionSettingsInput): Promise<Envelope<CollectionSettings>> {
  const res = await http.put<Envelope<CollectionSettings>>(collectionPaths.settings, ladder);
  return res.data;
}

/** The form shows the server's field errors itself; anything else is a toast. */
export function useSaveLadder() {
  const invalidate = useInvalidateCollection();
  return useMutation({
    mutationFn: saveLadder,
    onSuccess: (env) => {
      notify.success(env?.message || collectionText.ladder.saved);
      void invalidate();
    },
  });
}
