import { Role } from '../../contract/enums';
import type { EntityRoles } from './entity';

/** Admin and SuperAdmin. */
export const ADMINS = [Role.SuperAdmin, Role.Admin] as const;

/** Admin entities of a tenant (api-contract): only Admin and SuperAdmin read or write them. */
export const adminEntityRoles: EntityRoles = { read: ADMINS, create: ADMINS, update: ADMINS, remove: ADMINS };
