import { useState, type FormEvent } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { messages } from '../../../contract/messages';
import { contactSchema } from '../../../contract/schemas/contact';
import { notify } from '../../lib/notify';
import { sendContact, type ContactPayload, type ContactResult } from './send-contact';

type ContactInput = z.input<typeof contactSchema>;

/** What the inputs hold: an unticked OPT_IN checkbox reads as `false`, which the schema rejects. */
export type ContactFormValues = Omit<ContactInput, 'OPT_IN'> & { OPT_IN: ContactInput['OPT_IN'] | false };

export type ContactStatus =
  | { state: 'idle' }
  | { state: 'sent' }
  | { state: 'error'; reason: Extract<ContactResult, { ok: false }>['reason'] };

const emptyForm: ContactFormValues = {
  EMAIL: '',
  MESSAGGIO: '',
  OPT_IN: false,
  email_address_check: '',
  locale: 'it',
};

// The shared schema validates ContactInput; the form also holds `false` for the unticked box,
// which the schema refuses with the required message, as it should.
const resolver = zodResolver(contactSchema) as unknown as Resolver<
  ContactFormValues,
  unknown,
  ContactPayload
>;

/**
 * The landing contact form's controller: validation with the zod schema the server also uses,
 * submission, and the outcome the form shows. The component only renders what this returns.
 */
export function useContactForm() {
  const [status, setStatus] = useState<ContactStatus>({ state: 'idle' });
  const form = useForm<ContactFormValues, unknown, ContactPayload>({
    resolver,
    defaultValues: emptyForm,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(
    async (values) => {
      setStatus({ state: 'idle' });
      const result = await sendContact(values);
      // Spec §8: a toast, as every message unless stated; the form shows the outcome too.
      if (result.ok) {
        form.reset(emptyForm);
        setStatus({ state: 'sent' });
        notify.success(messages.contact.success);
      } else {
        setStatus({ state: 'error', reason: result.reason });
        notify.error(messages.contact.error);
      }
    },
    () => setStatus({ state: 'idle' }),
  );

  return {
    register: form.register,
    /** Inline message per field; undefined when the field is valid. */
    fieldErrors: {
      EMAIL: errors.EMAIL?.message,
      MESSAGGIO: errors.MESSAGGIO?.message,
      // A union's failure surfaces as a member's generic message; the only way OPT_IN fails is
      // an unticked box, so it always reads as the required message.
      OPT_IN: errors.OPT_IN ? messages.contact.required : undefined,
    },
    isSubmitting: form.formState.isSubmitting,
    status,
    onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event),
  };
}
