import { Role } from '../../../contract/enums';
import { serverMessages } from '../../../contract/messages';
import { HttpError } from '../../lib/http-error';
import type { Caller } from '../../crud/entity';

/** Only a SuperAdmin creates a SuperAdmin or gives that role (403). */
export function assertMayGrantRole(caller: Caller, roleId: number): void {
  if (roleId === Role.SuperAdmin && caller.roleId !== Role.SuperAdmin)
    throw new HttpError(403, serverMessages.superAdminOnly);
}

/** Only a SuperAdmin changes or removes a SuperAdmin (403). */
export function assertMayManage(caller: Caller, target: { roleId: number }): void {
  assertMayGrantRole(caller, target.roleId);
}

/** Nobody changes their own role, deactivates or removes themselves here (409): no lock-out by mistake. */
export function assertNotSelf(caller: Caller, userId: number, change: boolean): void {
  if (caller.userId === userId && change) throw new HttpError(409, serverMessages.selfChange);
}
