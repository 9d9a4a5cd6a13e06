import { z } from 'zod';
import { messages } from '../../../contract/messages';
import { optionalRef, requiredRef, requiredText } from '../../../contract/schemas/fields';
import {
  roleIdField,
  userEmailField,
  userNameField,
  userPecField,
  userPhoneField,
  userSdiField,
  userVatCodeField,
} from '../../../contract/schemas/user';
import { Role, roleNameById, type RoleId } from '../../../contract/enums';
import type { UserWizardPayload } from '../../../contract/schemas/user';
import { validationMessages } from '../../../contract/validation/italian';

/**
 * The wizard's rules (spec §5): step 1 e-mail required and well formed; step 2 name required (and
 * the same PEC, phone, SDI and Partita IVA checks the server runs); step 3 street, ZIP and
 * municipality required. Field schemas come from the contract, so both sides agree.
 */
export const wizardSchema = z.object({
  email: userEmailField,
  name: userNameField,
  pec: userPecField,
  phone: userPhoneField,
  sdi: userSdiField,
  vatCode: userVatCodeField,
  isCompany: z.boolean(),
  isActive: z.boolean(),
  roleId: roleIdField,
  street: requiredText(200, messages.wizard.streetRequired),
  zip: requiredText(10, validationMessages.zipRequired),
  region: optionalRef,
  province: optionalRef,
  municipality: requiredRef(messages.wizard.municipalityRequired),
});
export type WizardValues = z.output<typeof wizardSchema>;

export const wizardDefaults = {
  email: '',
  name: '',
  pec: '',
  phone: '',
  sdi: '',
  vatCode: '',
  isCompany: false,
  isActive: true,
  // Spec §5: the wizard's default role is Admin.
  roleId: Role.Admin as RoleId,
  street: '',
  zip: '',
  region: null,
  province: null,
  municipality: null,
};

/** The body of `POST api/user/Create`, PascalCase as spec §3 lists it. */
export function toWizardPayload(v: WizardValues): UserWizardPayload {
  return {
    Name: v.name,
    Email: v.email,
    Pec: v.pec ?? null,
    IsCompany: v.isCompany,
    IsActive: v.isActive,
    SDI: v.sdi ?? null,
    VATCode: v.vatCode ?? null,
    Phone: v.phone ?? null,
    Street: v.street,
    ZIP: v.zip,
    Region: v.region ?? null,
    Province: v.province ?? null,
    Municipality: v.municipality,
    Role: { Id: v.roleId, Name: roleNameById[v.roleId] },
    RoleId: v.roleId,
  };
}
