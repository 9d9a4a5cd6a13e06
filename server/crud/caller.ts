import { serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';
import type { Caller } from './entity';

/** The tenant of a tenant-scoped call (the routes require X-Tenant-Id; 400 without it). */
export function tenantOfCaller(caller: Caller): number {
  if (caller.tenantId === null) throw new HttpError(400, serverMessages.tenantRequired);
  return caller.tenantId;
}
