import { z } from 'zod';
import { messages } from '../messages';
import { validationMessages } from '../validation/italian';
import { optionalId } from './common';
import { optionalRef, requiredRef, requiredText } from './fields';

/** An address as the server answers it (tenant-scoped; a User sees only their own). */
export interface Address {
  id: number;
  street: string;
  zip: string;
  municipalityId: number;
  municipality: {
    id: number;
    name: string;
    zip: string;
    province: { id: number; name: string; abbreviation: string } | null;
  } | null;
  /** Owner, when the address belongs to a user (e.g. a billing address). */
  userId?: number | null;
}

/** Body of `POST api/address/Create` and `PUT api/address/Update` (with `id`). */
export const addressInputSchema = z.object({
  id: optionalId,
  street: requiredText(200, messages.wizard.streetRequired),
  zip: requiredText(10, validationMessages.zipRequired),
  municipalityId: requiredRef(messages.wizard.municipalityRequired),
  /**
   * Owner (a member of the tenant): the address becomes that user's own, the only ones a User
   * sees. Optional; on Update, absent keeps the owner and null clears it.
   */
  userId: optionalRef,
});
export type AddressInput = z.input<typeof addressInputSchema>;
